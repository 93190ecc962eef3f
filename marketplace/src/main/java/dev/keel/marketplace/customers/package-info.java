/**
 * Registration: who a buyer arriving from AWS Marketplace is (ResolveCustomer), as an outcome the caller words for a
 * person and records.
 */
package dev.keel.marketplace.customers;

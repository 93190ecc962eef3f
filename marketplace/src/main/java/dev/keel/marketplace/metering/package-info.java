/**
 * Hourly usage sent to AWS Marketplace with BatchMeterUsage, and what AWS said about each record. The caller keeps
 * the ledger: this package only sends what it is given and reports each record's outcome.
 */
package dev.keel.marketplace.metering;

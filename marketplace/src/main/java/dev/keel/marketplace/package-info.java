/**
 * AWS Marketplace, as the product's seller sees it: who a buyer is (ResolveCustomer), what their licence allows
 * (GetEntitlements), what they used (BatchMeterUsage) and how their agreement changes (EventBridge and legacy SNS
 * messages read from SQS). Stateless: every call's outcome goes back to the caller to be recorded.
 */
package dev.keel.marketplace;

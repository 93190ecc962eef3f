package dev.keel.marketplace.customers;

/**
 * Who subscribed, as ResolveCustomer says: the buyer's AWS account and licence identify them on listings since June
 * 2026 ("concurrent agreements"); {@code customerIdentifier} is what older listings knew them by, null when AWS no
 * longer returns it. {@code licenseArn} is null only for such older listings.
 */
public record Buyer(String customerAwsAccountId, String licenseArn, String productCode, String customerIdentifier) {
}

package dev.keel.marketplace.entitlements;

/**
 * Whose entitlements to read, as the GetEntitlements filter that selects them. Since June 2026 a buyer is its
 * licence (and the account it bills to); listings from before identify it by {@code CustomerIdentifier}.
 */
public record Buyer(String filterName, String filterValue) {

    public static Buyer licence(String licenseArn) {
        return new Buyer("LICENSE_ARN", licenseArn);
    }

    /** Every licence of the account: for a buyer known by its account before its licence is. */
    public static Buyer account(String customerAwsAccountId) {
        return new Buyer("CUSTOMER_AWS_ACCOUNT_ID", customerAwsAccountId);
    }

    public static Buyer legacyCustomer(String customerIdentifier) {
        return new Buyer("CUSTOMER_IDENTIFIER", customerIdentifier);
    }

    /** The licence where there is one, else the legacy customer identifier. */
    public static Buyer of(String licenseArn, String customerIdentifier) {
        if (licenseArn != null) {
            return licence(licenseArn);
        }
        if (customerIdentifier != null) {
            return legacyCustomer(customerIdentifier);
        }
        throw new IllegalArgumentException("a buyer has a licence ARN or a customer identifier");
    }
}

package dev.keel.marketplace.entitlements;

/**
 * Whose entitlements to read, as the GetEntitlements filter that selects them. Since June 2026 a buyer is its
 * licence (and the account it bills to); listings from before identify it by {@code CustomerIdentifier}.
 */
public record EntitlementFilter(String filterName, String filterValue) {

    public static EntitlementFilter licence(String licenseArn) {
        return new EntitlementFilter("LICENSE_ARN", licenseArn);
    }

    /** Every licence of the account: for a buyer known by its account before its licence is. */
    public static EntitlementFilter account(String customerAwsAccountId) {
        return new EntitlementFilter("CUSTOMER_AWS_ACCOUNT_ID", customerAwsAccountId);
    }

    public static EntitlementFilter legacyCustomer(String customerIdentifier) {
        return new EntitlementFilter("CUSTOMER_IDENTIFIER", customerIdentifier);
    }

    /** The licence where there is one, else the legacy customer identifier. */
    public static EntitlementFilter of(String licenseArn, String customerIdentifier) {
        if (licenseArn != null) {
            return licence(licenseArn);
        }
        if (customerIdentifier != null) {
            return legacyCustomer(customerIdentifier);
        }
        throw new IllegalArgumentException("a buyer has a licence ARN or a customer identifier");
    }
}

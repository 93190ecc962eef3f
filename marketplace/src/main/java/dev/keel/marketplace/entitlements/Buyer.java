package dev.keel.marketplace.entitlements;

/**
 * Whose entitlements to read. Since June 2026 a buyer is its licence (and the account it bills to); listings from
 * before identify it by {@code CustomerIdentifier}.
 */
public sealed interface Buyer {

    /** The GetEntitlements filter that selects this buyer's entitlements: its name and value. */
    String filterName();

    String filterValue();

    static Buyer of(String licenseArn, String customerIdentifier) {
        if (licenseArn != null) {
            return new Licence(licenseArn);
        }
        if (customerIdentifier != null) {
            return new LegacyCustomer(customerIdentifier);
        }
        throw new IllegalArgumentException("a buyer has a licence ARN or a customer identifier");
    }

    record Licence(String licenseArn) implements Buyer {

        @Override
        public String filterName() {
            return "LICENSE_ARN";
        }

        @Override
        public String filterValue() {
            return licenseArn;
        }
    }

    /** Every licence of the account: for a buyer known by its account before its licence is. */
    record Account(String customerAwsAccountId) implements Buyer {

        @Override
        public String filterName() {
            return "CUSTOMER_AWS_ACCOUNT_ID";
        }

        @Override
        public String filterValue() {
            return customerAwsAccountId;
        }
    }

    record LegacyCustomer(String customerIdentifier) implements Buyer {

        @Override
        public String filterName() {
            return "CUSTOMER_IDENTIFIER";
        }

        @Override
        public String filterValue() {
            return customerIdentifier;
        }
    }
}

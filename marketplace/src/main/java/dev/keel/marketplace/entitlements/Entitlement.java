package dev.keel.marketplace.entitlements;

/**
 * What a buyer's licence allows: at most {@code maxAku} AKU running at once across the organization (a contract's
 * {@code aku} dimension), or, with {@code maxAku} null, pay-as-you-go with no limit.
 */
public record Entitlement(Integer maxAku) {

    public static final Entitlement PAY_AS_YOU_GO = new Entitlement(null);

    public Entitlement {
        if (maxAku != null && maxAku < 1) {
            throw new IllegalArgumentException("an AKU entitlement is at least 1, not " + maxAku);
        }
    }

    public boolean payAsYouGo() {
        return maxAku == null;
    }
}

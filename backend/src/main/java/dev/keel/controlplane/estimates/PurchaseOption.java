package dev.keel.controlplane.estimates;

/** How the self-managed comparison pays for its brokers' EC2 instances. */
public enum PurchaseOption {
    ON_DEMAND,
    /** A 1-year Standard Reserved Instance paid monthly, nothing upfront: its effective hourly price. */
    RESERVED_1_YEAR_NO_UPFRONT
}

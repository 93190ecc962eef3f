package dev.keel.controlplane.billing;

/** Where a Marketplace subscription's agreement stands ({@code marketplace_subscriptions.state}). */
enum SubscriptionState {
    /** Linked to an organization; no agreement event applied yet. */
    PENDING,
    ACTIVE,
    AMENDED,
    /** The buyer cancelled; the final usage may still be metered. */
    CANCELLING,
    /** Over: no new instances; running ones keep running through the grace period, then are deleted. */
    ENDED
}

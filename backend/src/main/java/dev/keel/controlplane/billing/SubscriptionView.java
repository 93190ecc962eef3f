package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;

/**
 * What {@code GET /billing/subscription} answers: how the organization pays. {@code MARKETPLACE} with its
 * subscription, or {@code TRIAL} when no Marketplace subscription is linked to it.
 */
record SubscriptionView(Plan plan, Marketplace subscription) {

    enum Plan { MARKETPLACE, TRIAL }

    /**
     * @param entitlement  null until GetEntitlements was first read for it
     * @param graceEndsAt  until when the instances of an ended subscription keep running; then they are deleted
     */
    record Marketplace(SubscriptionState state, String productCode, String customerAwsAccountId, String licenseArn,
                       String customerIdentifier, Instant stateChangedAt, EntitlementView entitlement,
                       Instant endedAt, Instant graceEndsAt) {
    }

    /** {@code maxAku} null: pay-as-you-go, no limit. */
    record EntitlementView(boolean payAsYouGo, Integer maxAku, Instant readAt) {
    }

    static SubscriptionView trial() {
        return new SubscriptionView(Plan.TRIAL, null);
    }

    static SubscriptionView of(MarketplaceSubscription s, Duration gracePeriod) {
        EntitlementView entitlement = s.entitlementReadAt() == null ? null
                : new EntitlementView(s.entitledAku() == null, s.entitledAku(), s.entitlementReadAt());
        return new SubscriptionView(Plan.MARKETPLACE, new Marketplace(s.state(), s.productCode(),
                s.customerAwsAccountId(), s.licenseArn(), s.customerIdentifier(), s.stateEventAt(), entitlement,
                s.endedAt(), s.endedAt() == null ? null : s.endedAt().plus(gracePeriod)));
    }
}

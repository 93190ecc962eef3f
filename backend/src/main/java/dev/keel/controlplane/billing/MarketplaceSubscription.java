package dev.keel.controlplane.billing;

import java.time.Instant;
import java.util.UUID;

/** A row of {@code marketplace_subscriptions}: an organization's AWS Marketplace subscription. */
record MarketplaceSubscription(UUID id, UUID organizationId, String productCode, String customerAwsAccountId,
                               String licenseArn, String customerIdentifier, SubscriptionState state,
                               Instant stateEventAt, Integer entitledAku, Instant entitlementReadAt, Instant endedAt) {

    SubscriptionLifecycle.Standing standing() {
        return new SubscriptionLifecycle.Standing(state, stateEventAt);
    }
}

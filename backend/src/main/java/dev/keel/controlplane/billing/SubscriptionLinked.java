package dev.keel.controlplane.billing;

import java.util.UUID;

/** A Marketplace subscription was linked to an organization: its agreement events and entitlements apply now. */
public record SubscriptionLinked(UUID subscriptionId, UUID organizationId) {
}

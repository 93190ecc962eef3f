package dev.keel.controlplane.cloudaccounts;

import java.util.UUID;

/** Who still depends on a cloud account; implemented by the features that place things in one. */
public interface CloudAccountUsage {

    long liveInstancesUsing(UUID organizationId, UUID cloudAccountId);
}

package dev.keel.controlplane.instances;

import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.cloudaccounts.CloudAccountUsage;

@Component
class InstanceCloudAccountUsage implements CloudAccountUsage {

    private final InstanceRepository instances;

    InstanceCloudAccountUsage(InstanceRepository instances) {
        this.instances = instances;
    }

    @Override
    public long liveInstancesUsing(UUID organizationId, UUID cloudAccountId) {
        return instances.liveUsing(organizationId, cloudAccountId);
    }
}

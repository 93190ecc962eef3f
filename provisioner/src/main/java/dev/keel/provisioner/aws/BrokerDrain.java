package dev.keel.provisioner.aws;

import dev.keel.provisioner.ProvisioningTarget;

/**
 * Called before a surplus broker is terminated on scale-down. A real drain moves the broker's
 * partitions away and waits for the controller to fence it; that needs the broker agent, which does
 * not exist yet.
 */
@FunctionalInterface
public interface BrokerDrain {

    void drain(ProvisioningTarget target, int nodeId, String ec2InstanceId);

    /**
     * Does nothing: the broker is terminated WITHOUT reassigning its partitions. Only acceptable
     * while brokers hold no data that is not already in S3 (diskless topics); replace it before
     * brokers keep state the cluster needs.
     */
    BrokerDrain NO_DRAIN_YET_PLACEHOLDER = (target, nodeId, ec2InstanceId) -> {
    };
}

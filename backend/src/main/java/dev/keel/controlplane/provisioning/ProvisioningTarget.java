package dev.keel.controlplane.provisioning;

import java.util.List;
import java.util.UUID;

import dev.keel.controlplane.catalog.WalType;

/**
 * Everything a driver needs to converge one instance: where (account, role, region, network), what
 * (WAL, brokers, FSx) and what it last saw.
 */
public record ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                                 List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps,
                                 Integer fsxCount, String instanceType, int brokerCount, String brokerVersion,
                                 Inventory observed) {

    /** The customer account reached by assuming {@code roleArn} with {@code externalId}. */
    public record Account(String awsAccountId, String roleArn, String externalId) {
    }

    public record Zone(String availabilityZone, String subnetId) {
    }
}

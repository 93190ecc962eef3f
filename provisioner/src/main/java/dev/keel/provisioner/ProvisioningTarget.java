package dev.keel.provisioner;

import java.util.List;
import java.util.UUID;


/**
 * Everything a driver needs to converge one instance: where (account, role, region, network), what
 * (WAL, brokers, FSx, broker image) and what it last saw.
 * <p>
 * {@code brokerImage} is the machine image brokers boot from (an AMI id on AWS) and {@code ingestUrl}
 * the control-plane URL the broker agent reports to; both travel to the brokers in the launch
 * template. Either may be {@code null}, in which case a driver falls back to its own configuration.
 */
public record ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                                 List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps,
                                 Integer fsxCount, String instanceType, int brokerCount, String brokerVersion,
                                 Inventory observed, String brokerImage, String ingestUrl) {

    /** The constructor the backend has always called: no broker image, no ingest URL. */
    public ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                              List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps,
                              Integer fsxCount, String instanceType, int brokerCount, String brokerVersion,
                              Inventory observed) {
        this(instanceId, instanceName, region, account, vpcId, zones, walType, aku, fsxThroughputMBps, fsxCount,
                instanceType, brokerCount, brokerVersion, observed, null, null);
    }

    /** The customer account reached by assuming {@code roleArn} with {@code externalId}. */
    public record Account(String awsAccountId, String roleArn, String externalId) {
    }

    public record Zone(String availabilityZone, String subnetId) {
    }

    public ProvisioningTarget withObserved(Inventory inventory) {
        return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, aku,
                fsxThroughputMBps, fsxCount, instanceType, brokerCount, brokerVersion, inventory, brokerImage, ingestUrl);
    }

    /** The same instance resized: another AKU and broker count (and FSx sizing), as an UPDATE would see it. */
    public ProvisioningTarget resized(int newAku, int newBrokerCount, Integer newFsxThroughputMBps, Integer newFsxCount) {
        return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, newAku,
                newFsxThroughputMBps, newFsxCount, instanceType, newBrokerCount, brokerVersion, observed, brokerImage,
                ingestUrl);
    }
}

package dev.keel.provisioner;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Everything a driver needs to converge one instance: where (account, role, region, network), what
 * (WAL, brokers, FSx), what its brokers run and report to ({@code agent}), what it last saw, and
 * which broker machines ({@code impairedBrokers}, EC2 instance ids) stopped reporting and are to be
 * replaced, until when a delete keeps the instance's data ({@code dataRetainedUntil}; null: a delete removes
 * everything at once), and what Keel does about the S3 gateway endpoint of its subnets ({@code s3GatewayEndpoint}).
 */
public record ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                                 List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps,
                                 Integer fsxCount, String instanceType, int brokerCount, String brokerVersion,
                                 Inventory observed, Agent agent, Set<String> impairedBrokers,
                                 Instant dataRetainedUntil, S3GatewayEndpointMode s3GatewayEndpoint) {

    public ProvisioningTarget {
        impairedBrokers = Set.copyOf(impairedBrokers);
    }

    /** A target that leaves the VPC's routing alone. */
    public ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                              List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps, Integer fsxCount,
                              String instanceType, int brokerCount, String brokerVersion, Inventory observed, Agent agent,
                              Set<String> impairedBrokers, Instant dataRetainedUntil) {
        this(instanceId, instanceName, region, account, vpcId, zones, walType, aku, fsxThroughputMBps, fsxCount,
                instanceType, brokerCount, brokerVersion, observed, agent, impairedBrokers, dataRetainedUntil,
                S3GatewayEndpointMode.NONE);
    }

    /** A target with every broker machine taken to be sound, whose delete keeps nothing, leaving the VPC's routing alone. */
    public ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                              List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps, Integer fsxCount,
                              String instanceType, int brokerCount, String brokerVersion, Inventory observed, Agent agent) {
        this(instanceId, instanceName, region, account, vpcId, zones, walType, aku, fsxThroughputMBps, fsxCount,
                instanceType, brokerCount, brokerVersion, observed, agent, Set.of(), null);
    }

    /** The customer account reached by assuming {@code roleArn} with {@code externalId}. */
    public record Account(String awsAccountId, String roleArn, String externalId) {
    }

    public record Zone(String availabilityZone, String subnetId) {
    }

    /**
     * What the brokers boot ({@code boot}, resolved when a create is planned) and where their agent reports
     * ({@code ingestUrl}, authenticated with {@code ingestToken}); all travel in the launch template. A null
     * {@code boot} is what the instance's launch template already boots, or else what the driver resolves when it
     * makes the template; a null URL falls back to the driver's configuration.
     */
    public record Agent(BootImage boot, String ingestUrl, String ingestToken) {
    }

    public BootImage boot() {
        return agent == null ? null : agent.boot();
    }

    public String ingestUrl() {
        return agent == null ? null : agent.ingestUrl();
    }

    public String ingestToken() {
        return agent == null ? null : agent.ingestToken();
    }

    public ProvisioningTarget withImpairedBrokers(Set<String> ec2InstanceIds) {
        return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, aku,
                fsxThroughputMBps, fsxCount, instanceType, brokerCount, brokerVersion, observed, agent, ec2InstanceIds,
                dataRetainedUntil, s3GatewayEndpoint);
    }

    public ProvisioningTarget withObserved(Inventory inventory) {
        return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, aku,
                fsxThroughputMBps, fsxCount, instanceType, brokerCount, brokerVersion, inventory, agent, impairedBrokers,
                dataRetainedUntil, s3GatewayEndpoint);
    }

    /** The same instance resized: another AKU and broker count (and FSx sizing), as an UPDATE would see it. */
    public ProvisioningTarget resized(int newAku, int newBrokerCount, Integer newFsxThroughputMBps, Integer newFsxCount) {
        return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, newAku,
                newFsxThroughputMBps, newFsxCount, instanceType, newBrokerCount, brokerVersion, observed, agent,
                impairedBrokers, dataRetainedUntil, s3GatewayEndpoint);
    }

    /** The same instance, deleted keeping its data until {@code until} (null: nothing kept). */
    public ProvisioningTarget retainingDataUntil(Instant until) {
        return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, aku,
                fsxThroughputMBps, fsxCount, instanceType, brokerCount, brokerVersion, observed, agent, impairedBrokers,
                until, s3GatewayEndpoint);
    }

    public ProvisioningTarget withS3GatewayEndpoint(S3GatewayEndpointMode mode) {
        return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, aku,
                fsxThroughputMBps, fsxCount, instanceType, brokerCount, brokerVersion, observed, agent, impairedBrokers,
                dataRetainedUntil, mode);
    }
}

package dev.keel.provisioner;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Everything a driver needs to converge one instance: where (account, role, region, network), what
 * (WAL, brokers, FSx), what its brokers run and report to ({@code agent}), what it last saw, until when a delete keeps the instance's data ({@code dataRetainedUntil}; null: a delete removes
 * everything at once), what Keel does about the S3 gateway endpoint of its subnets ({@code s3GatewayEndpoint}), and
 * the subnets of the other Keel instances in the same account and VPC, not deleted, also those being created
 * ({@code otherInstancesSubnets}): they share Keel's endpoint, and a route table one of them uses stays on it. They come
 * from the control plane's records, as an instance between its first step and its brokers leaves no trace of its
 * subnets in the account. {@code listenerSecurity} says how its brokers authenticate clients and each other.
 */
public record ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                                 List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps,
                                 Integer fsxCount, String instanceType, int brokerCount, String brokerVersion,
                                 Inventory observed, Agent agent, Instant dataRetainedUntil, S3GatewayEndpointMode s3GatewayEndpoint,
                                 Set<String> otherInstancesSubnets, ListenerSecurity listenerSecurity) {

    public ProvisioningTarget {
        otherInstancesSubnets = Set.copyOf(otherInstancesSubnets);
    }

    /** A target whose brokers listen as instances made before secure listeners do (in plaintext). */
    public ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                              List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps, Integer fsxCount,
                              String instanceType, int brokerCount, String brokerVersion, Inventory observed, Agent agent,
                              Instant dataRetainedUntil, S3GatewayEndpointMode s3GatewayEndpoint,
                              Set<String> otherInstancesSubnets) {
        this(instanceId, instanceName, region, account, vpcId, zones, walType, aku, fsxThroughputMBps, fsxCount,
                instanceType, brokerCount, brokerVersion, observed, agent, dataRetainedUntil,
                s3GatewayEndpoint, otherInstancesSubnets, ListenerSecurity.PLAINTEXT_UNAUTHENTICATED);
    }

    /** A target that leaves the VPC's routing alone, the VPC's only Keel instance. */
    public ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                              List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps, Integer fsxCount,
                              String instanceType, int brokerCount, String brokerVersion, Inventory observed, Agent agent,
                              Instant dataRetainedUntil) {
        this(instanceId, instanceName, region, account, vpcId, zones, walType, aku, fsxThroughputMBps, fsxCount,
                instanceType, brokerCount, brokerVersion, observed, agent, dataRetainedUntil,
                S3GatewayEndpointMode.NONE, Set.of());
    }

    /** A target whose delete keeps nothing, leaving the VPC's routing alone. */
    public ProvisioningTarget(UUID instanceId, String instanceName, String region, Account account, String vpcId,
                              List<Zone> zones, WalType walType, int aku, Integer fsxThroughputMBps, Integer fsxCount,
                              String instanceType, int brokerCount, String brokerVersion, Inventory observed, Agent agent) {
        this(instanceId, instanceName, region, account, vpcId, zones, walType, aku, fsxThroughputMBps, fsxCount,
                instanceType, brokerCount, brokerVersion, observed, agent, null);
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

        @Override
        public String toString() {
            return "Agent[boot=" + boot + ", ingestUrl=" + ingestUrl + ", ingestToken=(redacted)]";
        }
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

    public ProvisioningTarget withObserved(Inventory inventory) {
        return copy(c -> c.observed = inventory);
    }

    /** The same instance resized: another AKU and broker count (and FSx sizing), as an UPDATE would see it. */
    public ProvisioningTarget resized(int newAku, int newBrokerCount, Integer newFsxThroughputMBps, Integer newFsxCount) {
        return copy(c -> {
            c.aku = newAku;
            c.brokerCount = newBrokerCount;
            c.fsxThroughputMBps = newFsxThroughputMBps;
            c.fsxCount = newFsxCount;
        });
    }

    /** The same instance, deleted keeping its data until {@code until} (null: nothing kept). */
    public ProvisioningTarget retainingDataUntil(Instant until) {
        return copy(c -> c.dataRetainedUntil = until);
    }

    public ProvisioningTarget withS3GatewayEndpoint(S3GatewayEndpointMode mode) {
        return copy(c -> c.s3GatewayEndpoint = mode);
    }

    public ProvisioningTarget withListenerSecurity(ListenerSecurity security) {
        return copy(c -> c.listenerSecurity = security);
    }

    /** The same instance sharing its VPC with Keel instances whose brokers are (or will be) in {@code subnetIds}. */
    public ProvisioningTarget withOtherInstancesSubnets(Set<String> subnetIds) {
        return copy(c -> c.otherInstancesSubnets = subnetIds);
    }

    /** This target with what {@code change} sets of its fields changed: the one way the withers copy it. */
    private ProvisioningTarget copy(Consumer<Fields> change) {
        Fields fields = new Fields(this);
        change.accept(fields);
        return fields.target();
    }

    /** A target's fields, to be changed before they make a new target. */
    private static final class Fields {
        private final UUID instanceId;
        private final String instanceName;
        private final String region;
        private final Account account;
        private final String vpcId;
        private final List<Zone> zones;
        private final WalType walType;
        private int aku;
        private Integer fsxThroughputMBps;
        private Integer fsxCount;
        private final String instanceType;
        private int brokerCount;
        private final String brokerVersion;
        private Inventory observed;
        private final Agent agent;
        private Instant dataRetainedUntil;
        private S3GatewayEndpointMode s3GatewayEndpoint;
        private Set<String> otherInstancesSubnets;
        private ListenerSecurity listenerSecurity;

        private Fields(ProvisioningTarget t) {
            instanceId = t.instanceId;
            instanceName = t.instanceName;
            region = t.region;
            account = t.account;
            vpcId = t.vpcId;
            zones = t.zones;
            walType = t.walType;
            aku = t.aku;
            fsxThroughputMBps = t.fsxThroughputMBps;
            fsxCount = t.fsxCount;
            instanceType = t.instanceType;
            brokerCount = t.brokerCount;
            brokerVersion = t.brokerVersion;
            observed = t.observed;
            agent = t.agent;
            dataRetainedUntil = t.dataRetainedUntil;
            s3GatewayEndpoint = t.s3GatewayEndpoint;
            otherInstancesSubnets = t.otherInstancesSubnets;
            listenerSecurity = t.listenerSecurity;
        }

        private ProvisioningTarget target() {
            return new ProvisioningTarget(instanceId, instanceName, region, account, vpcId, zones, walType, aku,
                    fsxThroughputMBps, fsxCount, instanceType, brokerCount, brokerVersion, observed, agent,
                    dataRetainedUntil, s3GatewayEndpoint, otherInstancesSubnets, listenerSecurity);
        }
    }
}

package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ListenerSecurity;

/** An instance as the API shows it: the stored state plus what its catalog version says it can carry. */
record InstanceView(UUID id, String name, UUID cloudAccountId, String region, InstanceState state, InstanceSpec spec,
                    int specVersion, SizingCatalog.Capacity capacity, SizingCatalog.Sizing sizing, InventoryView inventory,
                    Connection connection, List<Condition> conditions, Instant createdAt, Instant updatedAt, boolean deletionProtection,
                    Instant dataRetainedUntil) {

    /** What the control plane observed in the cloud, each broker with what its agent last reported. */
    record InventoryView(String bootstrapServers, List<BrokerView> brokers, List<Inventory.CloudResource> resources) {
    }

    /**
     * What a Kafka client needs to connect: the bootstrap servers, the security protocol and SASL mechanism to set, and
     * where the CA certificate its brokers' certificates chain to is downloaded (null for a plaintext instance).
     */
    record Connection(String bootstrapServers, String securityProtocol, String saslMechanism, String caCertificateUrl) {

        static Connection of(Instance instance, String bootstrapServers) {
            if (instance.spec().listenerSecurity() == ListenerSecurity.SASL_SSL) {
                return new Connection(bootstrapServers, "SASL_SSL", "SCRAM-SHA-512",
                        "/instances/" + instance.id() + "/ca-certificate");
            }
            return new Connection(bootstrapServers, "PLAINTEXT", null, null);
        }
    }

    record BrokerView(int nodeId, String availabilityZone, String address, Health health, BrokerStatuses.Drain drain) {
    }

    /** {@code HEALTHY}, {@code UNHEALTHY} (the message says why) or {@code UNKNOWN} (no report yet). */
    record Health(String status, String message, Instant reportedAt) {

        static final String HEALTHY_STATUS = "HEALTHY";
        static final Health UNKNOWN = new Health("UNKNOWN", "Its agent has not reported yet.", null);

        static Health of(BrokerStatuses.BrokerStatus status) {
            if (status == null) {
                return UNKNOWN;
            }
            return status.problem() == null
                    ? new Health(HEALTHY_STATUS, "Healthy.", status.reportedAt())
                    : new Health("UNHEALTHY", status.problem(), status.reportedAt());
        }
    }

    static InstanceView of(Instance instance, SizingCatalog catalog) {
        return of(instance, catalog, Map.of());
    }

    static InstanceView of(Instance instance, SizingCatalog catalog, Map<Integer, BrokerStatuses.BrokerStatus> reported) {
        InventoryView inventory = inventory(instance.inventory(), reported);
        return new InstanceView(instance.id(), instance.name(), instance.cloudAccountId(), instance.region(),
                instance.state(), instance.spec(), instance.specVersion(), catalog.capacityOf(instance.spec().aku()),
                catalog.sizingOf(instance.spec().aku()), inventory,
                Connection.of(instance, inventory.bootstrapServers()), instance.conditions(), instance.createdAt(), instance.updatedAt(), instance.deletionProtection(),
                instance.dataRetainedUntil());
    }

    private static InventoryView inventory(Inventory inventory, Map<Integer, BrokerStatuses.BrokerStatus> reported) {
        List<BrokerView> brokers = inventory.brokers().stream()
                .map(b -> {
                    BrokerStatuses.BrokerStatus status = reported.get(b.nodeId());
                    String advertised = status == null ? null : status.address();
                    return new BrokerView(b.nodeId(), b.availabilityZone(), Objects.requireNonNullElse(advertised, b.address()),
                            Health.of(status), status == null ? null : status.drain());
                })
                .toList();
        return new InventoryView(reported.isEmpty() ? inventory.bootstrapServers() : serving(brokers), brokers,
                inventory.resources());
    }

    /**
     * Once agents report, the addresses of the brokers that serve, as they advertise them: those reporting healthy. A
     * broker still starting, or unwell, would hand a client a connection that fails; null while none serves.
     */
    private static String serving(List<BrokerView> brokers) {
        String serving = brokers.stream().filter(b -> b.health().status().equals(Health.HEALTHY_STATUS))
                .map(BrokerView::address).filter(Objects::nonNull).collect(Collectors.joining(","));
        return serving.isEmpty() ? null : serving;
    }
}

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

    /** {@code machineId}: the EC2 instance it runs on, as the cloud last showed it. */
    record BrokerView(int nodeId, String availabilityZone, String address, String machineId, Health health,
                      BrokerStatuses.Drain drain) {
    }

    /** {@code STARTING}, {@code HEALTHY} or {@code UNHEALTHY}, as {@link BrokerState} reads the broker. */
    record Health(String status, String message, Instant reportedAt) {

        static Health of(BrokerState state) {
            return new Health(state.phase().name(), state.message(), state.reportedAt());
        }
    }

    static InstanceView of(Instance instance, SizingCatalog catalog) {
        return of(instance, catalog, Map.of());
    }

    static InstanceView of(Instance instance, SizingCatalog catalog, Map<Integer, BrokerState> brokers) {
        InventoryView inventory = inventory(instance.inventory(), brokers);
        return new InstanceView(instance.id(), instance.name(), instance.cloudAccountId(), instance.region(),
                instance.state(), instance.spec(), instance.specVersion(), catalog.capacityOf(instance.spec().aku()),
                catalog.sizingOf(instance.spec().aku()), inventory,
                Connection.of(instance, inventory.bootstrapServers()), instance.conditions(), instance.createdAt(), instance.updatedAt(), instance.deletionProtection(),
                instance.dataRetainedUntil());
    }

    /**
     * The inventory's brokers, each as its state reads it; the bootstrap servers are the addresses of those that serve
     * with the instance's credentials, and none else: a broker still starting, unwell or silent would hand a client a
     * connection that fails. Null while none serves.
     */
    private static InventoryView inventory(Inventory inventory, Map<Integer, BrokerState> states) {
        List<BrokerView> brokers = inventory.brokers().stream()
                .map(b -> {
                    BrokerState state = states.getOrDefault(b.nodeId(), BrokerState.of(b, null, false));
                    return new BrokerView(b.nodeId(), b.availabilityZone(), state.address(), b.machineId(),
                            Health.of(state), state.status() == null ? null : state.status().drain());
                })
                .toList();
        String serving = inventory.brokers().stream().map(b -> states.get(b.nodeId()))
                .filter(state -> state != null && state.serving()).map(BrokerState::address).filter(Objects::nonNull)
                .collect(Collectors.joining(","));
        return new InventoryView(serving.isEmpty() ? null : serving, brokers, inventory.resources());
    }
}

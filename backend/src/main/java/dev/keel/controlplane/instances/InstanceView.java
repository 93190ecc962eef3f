package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.provisioner.Inventory;

/** An instance as the API shows it: the stored state plus what its catalog version says it can carry. */
record InstanceView(UUID id, String name, UUID cloudAccountId, String region, InstanceState state, InstanceSpec spec,
                    int specVersion, SizingCatalog.Capacity capacity, SizingCatalog.Sizing sizing, Inventory inventory,
                    List<Condition> conditions, Instant createdAt, Instant updatedAt) {

    static InstanceView of(Instance instance, SizingCatalog catalog) {
        return of(instance, catalog, Map.of());
    }

    static InstanceView of(Instance instance, SizingCatalog catalog, Map<Integer, String> advertised) {
        return new InstanceView(instance.id(), instance.name(), instance.cloudAccountId(), instance.region(),
                instance.state(), instance.spec(), instance.specVersion(), catalog.capacityOf(instance.spec().aku()),
                catalog.sizingOf(instance.spec().aku()), withAdvertised(instance.inventory(), advertised),
                instance.conditions(), instance.createdAt(), instance.updatedAt());
    }

    private static Inventory withAdvertised(Inventory inventory, Map<Integer, String> advertised) {
        if (advertised.isEmpty()) {
            return inventory;
        }
        List<Inventory.Broker> brokers = inventory.brokers().stream()
                .map(b -> new Inventory.Broker(b.nodeId(), b.availabilityZone(), advertised.getOrDefault(b.nodeId(), b.address())))
                .toList();
        String bootstrap = brokers.stream().map(Inventory.Broker::address).filter(Objects::nonNull)
                .collect(Collectors.joining(","));
        return new Inventory(bootstrap.isEmpty() ? inventory.bootstrapServers() : bootstrap, brokers, inventory.resources());
    }
}

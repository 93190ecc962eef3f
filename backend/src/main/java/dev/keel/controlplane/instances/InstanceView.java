package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.provisioner.Inventory;

/** An instance as the API shows it: the stored state plus what its catalog version says it can carry. */
record InstanceView(UUID id, String name, UUID cloudAccountId, String region, InstanceState state, InstanceSpec spec,
                    int specVersion, SizingCatalog.Capacity capacity, SizingCatalog.Sizing sizing, Inventory inventory,
                    List<Condition> conditions, Instant createdAt, Instant updatedAt) {

    static InstanceView of(Instance instance, SizingCatalog catalog) {
        return new InstanceView(instance.id(), instance.name(), instance.cloudAccountId(), instance.region(),
                instance.state(), instance.spec(), instance.specVersion(), catalog.capacityOf(instance.spec().aku()),
                catalog.sizingOf(instance.spec().aku()), instance.inventory(), instance.conditions(),
                instance.createdAt(), instance.updatedAt());
    }
}

package dev.keel.controlplane.instances;

import java.util.List;
import java.util.UUID;

import dev.keel.controlplane.support.Fixtures;
import dev.keel.provisioner.Inventory;

/** Instances written straight into the records, with no operation: what a create leaves before its first step. */
final class RecordedInstances {

    private RecordedInstances() {
    }

    /** Records an instance being created in {@code vpc}, in the account and region of {@code like}. */
    static UUID record(InstanceRepository instances, Instance like, String vpc, String subnet) {
        InstanceSpec spec = like.spec();
        UUID id = UUID.randomUUID();
        instances.insert(id, like.organizationId(), like.cloudAccountId(), Fixtures.unique("kafka"), like.region(),
                new InstanceSpec(new NetworkSpec(vpc, List.of(new NetworkSpec.Subnet("us-east-1a", subnet)),
                        spec.network().s3GatewayEndpoint()), spec.wal(), spec.aku(), spec.fsx(), spec.brokerVersion(),
                        spec.catalogVersion(), spec.listenerSecurity()), false, Inventory.EMPTY);
        return id;
    }
}

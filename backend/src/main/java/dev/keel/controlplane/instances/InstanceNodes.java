package dev.keel.controlplane.instances;

import java.util.Optional;
import java.util.TreeSet;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.controlplane.operations.Operations;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.provisioner.Inventory;

/**
 * The nodes an agent may speak for. An instance has the nodes its inventory records (those a scale-down is about to
 * retire among them) and those its spec plans, 0 to its broker count less one: a create, update or repair launches a
 * machine before the step that launched it records it, and that machine's agent starts at once. Any other node id
 * is refused on {@code nodeId}: nothing launched it, so nothing it says is stored.
 */
@Component
public class InstanceNodes {

    public static final String FIELD = "nodeId";

    private final SizingCatalogs catalogs;
    private final Operations operations;

    InstanceNodes(SizingCatalogs catalogs, Operations operations) {
        this.catalogs = catalogs;
        this.operations = operations;
    }

    /** 400 on {@code nodeId} unless the instance records or plans node {@code nodeId}. */
    public void requireKnown(Instance instance, int nodeId) {
        int planned = plannedCount(instance);
        if (nodeId >= 0 && nodeId < planned || recorded(instance, nodeId).isPresent()) {
            return;
        }
        TreeSet<Integer> beyond = new TreeSet<>(instance.inventory().brokers().stream().map(Inventory.Broker::nodeId)
                .filter(n -> n >= planned).toList());
        throw ApiException.validation(FIELD, "is not a node of instance " + instance.id() + ": it has nodes 0 to "
                + (planned - 1) + (beyond.isEmpty() ? "" : " and, being retired, " + beyond));
    }

    /** The node as the inventory last recorded it, if it does. */
    public Optional<Inventory.Broker> recorded(Instance instance, int nodeId) {
        return instance.inventory().brokers().stream().filter(b -> b.nodeId() == nodeId).findFirst();
    }

    /**
     * Whether a create, update or repair runs on the instance: a machine it launched may not be recorded yet, or be
     * recorded with the address of the machine it replaces.
     */
    public boolean launching(Instance instance) {
        return operations.launchingBrokers(instance.id());
    }

    private int plannedCount(Instance instance) {
        InstanceSpec spec = instance.spec();
        return catalogs.version(spec.catalogVersion()).sizingOf(spec.aku()).brokerCount();
    }
}

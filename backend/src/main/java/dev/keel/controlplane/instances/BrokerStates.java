package dev.keel.controlplane.instances;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.keel.provisioner.Inventory;

/** Each broker of instances, as {@link BrokerState} reads it, in one reading of the reports and one of the deliveries. */
@Component
public class BrokerStates {

    private final BrokerStatuses statuses;
    private final BrokerCredentials credentials;

    BrokerStates(BrokerStatuses statuses, BrokerCredentials credentials) {
        this.statuses = statuses;
        this.credentials = credentials;
    }

    /** Of each instance, its inventory's brokers by node id. */
    public Map<UUID, Map<Integer, BrokerState>> of(Collection<Instance> instances) {
        List<UUID> ids = instances.stream().map(Instance::id).toList();
        Map<UUID, Map<Integer, BrokerStatuses.BrokerStatus>> reported = statuses.of(ids);
        Map<UUID, Set<Integer>> awaited = credentials.awaited(ids);
        Map<UUID, Map<Integer, BrokerState>> states = new LinkedHashMap<>();
        for (Instance instance : instances) {
            Map<Integer, BrokerStatuses.BrokerStatus> status = reported.getOrDefault(instance.id(), Map.of());
            Set<Integer> waiting = awaited.getOrDefault(instance.id(), Set.of());
            Map<Integer, BrokerState> brokers = new LinkedHashMap<>();
            for (Inventory.Broker broker : instance.inventory().brokers()) {
                brokers.put(broker.nodeId(), BrokerState.of(broker, status.get(broker.nodeId()),
                        waiting.contains(broker.nodeId())));
            }
            states.put(instance.id(), brokers);
        }
        return states;
    }

    public Map<Integer, BrokerState> of(Instance instance) {
        return of(List.of(instance)).get(instance.id());
    }
}

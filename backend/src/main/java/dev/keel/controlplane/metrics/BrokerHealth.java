package dev.keel.controlplane.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.BrokerStatuses;
import dev.keel.controlplane.instances.Condition;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.Instances;
import dev.keel.provisioner.Inventory;

/**
 * The instance's {@code Degraded} condition from its brokers' reports: true when a broker the
 * inventory lists has not reported recently, or reports its process down, its listener
 * unreachable or no controller quorum; the message names each broker that is unwell. Drift,
 * which the reconciler reports on the same condition, takes precedence until it is repaired.
 */
@Component
class BrokerHealth {

    /** Instances whose reports are read in one query: few queries per pass, each of bounded size. */
    private static final int BATCH = 500;

    private final Instances instances;
    private final LastReports reports;

    BrokerHealth(Instances instances, LastReports reports) {
        this.instances = instances;
        this.reports = reports;
    }

    /**
     * Evaluates every live instance. It runs every few seconds over every instance, so it reads in
     * batches and writes only the conditions that change.
     */
    void evaluateAll() {
        List<Instance> live = instances.live();
        Set<UUID> drifted = instances.drifted();
        for (int from = 0; from < live.size(); from += BATCH) {
            List<Instance> batch = live.subList(from, Math.min(from + BATCH, live.size()));
            Map<UUID, Map<Integer, BrokerStatuses.BrokerStatus>> reported = reports.of(batch.stream().map(Instance::id).toList());
            for (Instance instance : batch) {
                if (!drifted.contains(instance.id())) {
                    evaluate(instance, reported.get(instance.id()));
                }
            }
        }
    }

    private void evaluate(Instance instance, Map<Integer, BrokerStatuses.BrokerStatus> reported) {
        if (reported.isEmpty()) {
            instances.setCondition(instance, Condition.DEGRADED, "Unknown", "AwaitingReports",
                    "No broker agent of this instance has reported yet.");
            return;
        }
        List<String> problems = new ArrayList<>();
        for (Inventory.Broker broker : instance.inventory().brokers()) {
            BrokerStatuses.BrokerStatus status = reported.get(broker.nodeId());
            if (status == null) {
                problems.add("broker " + broker.nodeId() + " has never reported");
            } else if (status.problem() != null) {
                problems.add("broker " + broker.nodeId() + " " + status.problem());
            }
        }
        if (problems.isEmpty()) {
            instances.setCondition(instance, Condition.DEGRADED, "False", "BrokersHealthy", "Every broker reports healthy.");
        } else {
            instances.setCondition(instance, Condition.DEGRADED, "True", "BrokersUnhealthy", String.join("; ", problems) + ".");
        }
    }
}

package dev.keel.controlplane.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    private final Instances instances;
    private final LastReports reports;

    BrokerHealth(Instances instances, LastReports reports) {
        this.instances = instances;
        this.reports = reports;
    }

    void evaluateAll() {
        for (Instance instance : instances.live()) {
            evaluate(instance);
        }
    }

    void evaluate(Instance instance) {
        if (instances.drift(instance.id()).isPresent()) {
            return;
        }
        Map<Integer, BrokerStatuses.BrokerStatus> reported = reports.of(instance.id());
        if (reported.isEmpty()) {
            instances.setCondition(instance.id(), Condition.DEGRADED, "Unknown", "AwaitingReports",
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
            instances.setCondition(instance.id(), Condition.DEGRADED, "False", "BrokersHealthy", "Every broker reports healthy.");
        } else {
            instances.setCondition(instance.id(), Condition.DEGRADED, "True", "BrokersUnhealthy", String.join("; ", problems) + ".");
        }
    }
}

package dev.keel.controlplane.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

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
    private final MetricsStore store;
    private final Clock clock;
    private final Duration staleAfter;

    BrokerHealth(Instances instances, MetricsStore store, Clock clock,
                 @Value("${keel.health.stale-after:20s}") Duration staleAfter) {
        this.instances = instances;
        this.store = store;
        this.clock = clock;
        this.staleAfter = staleAfter;
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
        List<MetricsStore.ReportedBroker> reports = store.reports(instance.id());
        if (reports.isEmpty()) {
            instances.setCondition(instance.id(), Condition.DEGRADED, "Unknown", "AwaitingReports",
                    "No broker agent of this instance has reported yet.");
            return;
        }
        Map<Integer, MetricsStore.ReportedBroker> byNode = reports.stream()
                .collect(Collectors.toMap(MetricsStore.ReportedBroker::nodeId, Function.identity()));
        Instant now = clock.instant();
        List<String> problems = new ArrayList<>();
        for (Inventory.Broker broker : instance.inventory().brokers()) {
            MetricsStore.ReportedBroker report = byNode.get(broker.nodeId());
            String name = "broker " + broker.nodeId();
            if (report == null) {
                problems.add(name + " has never reported");
            } else if (report.reportedAt().isBefore(now.minus(staleAfter))) {
                problems.add(name + " has not reported for " + Duration.between(report.reportedAt(), now).toSeconds() + " s");
            } else if (!report.processUp()) {
                problems.add(name + " process is down");
            } else if (!report.listenerUp()) {
                problems.add(name + " listener is unreachable");
            } else if (!report.quorumOk()) {
                problems.add(name + " does not see the controller quorum");
            }
        }
        if (problems.isEmpty()) {
            instances.setCondition(instance.id(), Condition.DEGRADED, "False", "BrokersHealthy", "Every broker reports healthy.");
        } else {
            instances.setCondition(instance.id(), Condition.DEGRADED, "True", "BrokersUnhealthy", String.join("; ", problems) + ".");
        }
    }
}

package dev.keel.controlplane.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.BrokerStatuses;
import dev.keel.controlplane.instances.Condition;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.operations.OperationType;
import dev.keel.controlplane.operations.Operations;
import dev.keel.provisioner.Inventory;

/**
 * The instance's {@code Degraded} condition from its brokers' reports: true when a broker the
 * inventory lists has not reported recently, or reports its process down, its listener
 * unreachable or no controller quorum; the message names each broker that is unwell. Drift,
 * which the reconciler reports on the same condition, takes precedence until it is repaired.
 * A broker whose machine has never reported (its node may have reports of an earlier machine, one
 * a scale-down retired) while the operation that launched it runs, or within the normal start
 * time after it ended, is starting, not unwell: a scale-up shows as such ({@code Unknown},
 * {@value #BROKERS_STARTING}) until its brokers report or are late.
 */
@Component
class BrokerHealth {

    /** The reason of the {@code Degraded} condition while new brokers start and nothing else is wrong. */
    static final String BROKERS_STARTING = "BrokersStarting";

    /** Instances whose reports are read in one query: few queries per pass, each of bounded size. */
    private static final int BATCH = 500;

    private final Instances instances;
    private final LastReports reports;
    private final Operations operations;
    private final Clock clock;
    private final Duration brokerStartTime;

    BrokerHealth(Instances instances, LastReports reports, Operations operations, Clock clock,
                 @Value("${keel.health.broker-start-time}") Duration brokerStartTime) {
        this.instances = instances;
        this.reports = reports;
        this.operations = operations;
        this.clock = clock;
        this.brokerStartTime = brokerStartTime;
    }

    /**
     * Evaluates every live instance. It runs every few seconds over every instance, so it reads in
     * batches and writes only the conditions that change.
     */
    void evaluateAll() {
        evaluateAll(clock.instant());
    }

    /** As {@link #evaluateAll()}, at {@code now}. */
    void evaluateAll(Instant now) {
        List<Instance> live = instances.live();
        Set<UUID> drifted = instances.drifted();
        for (int from = 0; from < live.size(); from += BATCH) {
            List<Instance> batch = live.subList(from, Math.min(from + BATCH, live.size()));
            List<UUID> ids = batch.stream().map(Instance::id).toList();
            Map<UUID, Map<Integer, BrokerStatuses.BrokerStatus>> reported = reports.of(ids);
            Map<UUID, OperationType> launching = operations.launchingBrokers(ids, now.minus(brokerStartTime));
            for (Instance instance : batch) {
                if (!drifted.contains(instance.id())) {
                    evaluate(instance, reported.get(instance.id()), launching.get(instance.id()));
                }
            }
        }
    }

    /** {@code launching}: the operation that may have launched brokers that are still starting, or null. */
    private void evaluate(Instance instance, Map<Integer, BrokerStatuses.BrokerStatus> reported, OperationType launching) {
        if (reported.isEmpty()) {
            instances.setCondition(instance, Condition.DEGRADED, "Unknown", "AwaitingReports",
                    "No broker agent of this instance has reported yet.");
            return;
        }
        List<String> problems = new ArrayList<>();
        List<String> starting = new ArrayList<>();
        List<Inventory.Broker> silent = new ArrayList<>();
        for (Inventory.Broker broker : instance.inventory().brokers()) {
            BrokerStatuses.BrokerStatus status = reported.get(broker.nodeId());
            if (launching != null && (status == null || ofEarlierMachine(status, broker))) {
                starting.add(Integer.toString(broker.nodeId()));
            } else if (status == null) {
                problems.add("broker " + broker.nodeId() + " has never reported");
            } else if (status.problem() != null) {
                problems.add("broker " + broker.nodeId() + " " + status.problem());
            }
            if (status != null && status.silent() && !ofEarlierMachine(status, broker)) {
                silent.add(broker);
            }
        }
        agentsSilent(instance, silent, reported);
        if (!problems.isEmpty()) {
            instances.setCondition(instance, Condition.DEGRADED, "True", "BrokersUnhealthy", String.join("; ", problems) + ".");
        } else if (!starting.isEmpty()) {
            instances.setCondition(instance, Condition.DEGRADED, "Unknown", BROKERS_STARTING,
                    (starting.size() == 1 ? "Broker " + starting.getFirst() + " is" : "Brokers "
                            + String.join(", ", starting) + " are") + " starting (" + what(launching)
                            + "); every other broker reports healthy.");
        } else {
            instances.setCondition(instance, Condition.DEGRADED, "False", "BrokersHealthy", "Every broker reports healthy.");
        }
    }

    /**
     * The {@code AgentsSilent} condition: which agents stopped reporting and since when (their last report). It never
     * leads to a broker's replacement, which only EC2's evidence does.
     */
    private void agentsSilent(Instance instance, List<Inventory.Broker> silent,
                              Map<Integer, BrokerStatuses.BrokerStatus> reported) {
        if (silent.isEmpty()) {
            instances.setCondition(instance, Condition.AGENTS_SILENT, "False", "AgentsReporting",
                    "Every broker agent that has reported is reporting.");
            return;
        }
        Instant since = silent.stream().map(b -> reported.get(b.nodeId()).reportedAt()).min(Instant::compareTo)
                .orElseThrow();
        String nodes = silent.stream().map(b -> Integer.toString(b.nodeId())).collect(Collectors.joining(", "));
        instances.setCondition(instance, Condition.AGENTS_SILENT, "True", "AgentsSilent",
                (silent.size() == 1 ? "The agent of broker " + nodes + " has" : "The agents of brokers " + nodes
                        + " have") + " not reported since " + since + ". Keel replaces a broker only when EC2 reports "
                        + "its machine gone or impaired, never for its agent's silence alone.");
    }

    private static String what(OperationType launching) {
        return switch (launching) {
            case UPDATE -> "scale-up in progress";
            case REPAIR -> "repair in progress";
            case CREATE -> "create in progress";
            case DELETE -> throw new IllegalArgumentException("a delete launches no brokers");
        };
    }

    /** Whether the node's last report came from another machine than the one the inventory now lists for it. */
    private static boolean ofEarlierMachine(BrokerStatuses.BrokerStatus status, Inventory.Broker broker) {
        return status.machineId() != null && broker.machineId() != null && !status.machineId().equals(broker.machineId());
    }
}

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
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.BrokerCredentials;
import dev.keel.controlplane.instances.BrokerState;
import dev.keel.controlplane.instances.BrokerStates;
import dev.keel.controlplane.instances.Condition;
import dev.keel.controlplane.instances.DriftCleared;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.InstanceState;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.operations.OperationType;
import dev.keel.controlplane.operations.Operations;

/**
 * The instance's {@code Degraded} and {@code AgentsSilent} conditions from its brokers, as {@link BrokerState} reads
 * them: {@code Degraded} is true when a broker the inventory lists is unwell (silent, its process down, its listener
 * unreachable, no controller quorum); the message names each. Drift, which the reconciler reports on the same
 * condition, takes precedence until it is repaired. A broker still starting (its machine new, its broker not yet
 * serving, or waiting for the instance's credentials) while the operation that launched it runs, or within the normal
 * start time after it ended, is starting, not unwell: a scale-up shows as such ({@code Unknown},
 * {@value #BROKERS_STARTING}) until its brokers serve or are late. Every live instance is evaluated every few seconds,
 * and one at once when a report or a delivery of its credentials changes how a broker of it reads.
 */
@Component
class BrokerHealth {

    /** The reason of the {@code Degraded} condition while new brokers start and nothing else is wrong. */
    static final String BROKERS_STARTING = "BrokersStarting";

    /** Instances whose reports are read in one query: few queries per pass, each of bounded size. */
    private static final int BATCH = 500;

    private final Instances instances;
    private final BrokerStates brokers;
    private final Operations operations;
    private final Clock clock;
    private final Duration brokerStartTime;

    BrokerHealth(Instances instances, BrokerStates brokers, Operations operations, Clock clock,
                 @Value("${keel.health.broker-start-time}") Duration brokerStartTime) {
        this.instances = instances;
        this.brokers = brokers;
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
            evaluate(live.subList(from, Math.min(from + BATCH, live.size())).stream()
                    .filter(instance -> !drifted.contains(instance.id())).toList(), now);
        }
    }

    /**
     * Evaluates one instance at once, when a report or a delivery of its credentials changed how one of its brokers
     * reads: its conditions follow its brokers without waiting for the next pass.
     */
    void evaluate(UUID instanceId) {
        instances.find(instanceId)
                .filter(instance -> instance.state() == InstanceState.RUNNING || instance.state() == InstanceState.CHANGING)
                .filter(instance -> !instances.drifted().contains(instanceId))
                .ifPresent(instance -> evaluate(List.of(instance), clock.instant()));
    }

    @EventListener
    void credentialsDelivered(BrokerCredentials.Delivered delivered) {
        evaluate(delivered.instanceId());
    }

    @EventListener
    void driftCleared(DriftCleared cleared) {
        evaluate(cleared.instanceId());
    }

    private void evaluate(List<Instance> batch, Instant now) {
        Map<UUID, Map<Integer, BrokerState>> states = brokers.of(batch);
        Map<UUID, OperationType> launching = operations.launchingBrokers(batch.stream().map(Instance::id).toList(),
                now.minus(brokerStartTime));
        for (Instance instance : batch) {
            evaluate(instance, states.get(instance.id()), launching.get(instance.id()));
        }
    }

    /** {@code launching}: the operation that may have launched brokers that are still starting, or null. */
    private void evaluate(Instance instance, Map<Integer, BrokerState> states, OperationType launching) {
        if (states.values().stream().allMatch(state -> state.status() == null) && launching == null) {
            instances.setCondition(instance, Condition.DEGRADED, "Unknown", "AwaitingReports",
                    "No broker agent of this instance has reported yet.");
            return;
        }
        List<String> problems = new ArrayList<>();
        List<String> starting = new ArrayList<>();
        List<Integer> silent = new ArrayList<>();
        states.forEach((node, state) -> {
            switch (state.phase()) {
                case UNHEALTHY -> problems.add("broker " + node + " " + state.message());
                case STARTING -> {
                    if (launching != null) {
                        starting.add(Integer.toString(node));
                    } else {
                        problems.add("broker " + node + (state.status() == null ? " has never reported"
                                : " has not served since its machine started"));
                    }
                }
                case HEALTHY -> {
                }
            }
            if (state.status() != null && state.status().silent()) {
                silent.add(node);
            }
        });
        agentsSilent(instance, silent, states);
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
    private void agentsSilent(Instance instance, List<Integer> silent, Map<Integer, BrokerState> states) {
        if (silent.isEmpty()) {
            instances.setCondition(instance, Condition.AGENTS_SILENT, "False", "AgentsReporting",
                    "Every broker agent that has reported is reporting.");
            return;
        }
        Instant since = silent.stream().map(node -> states.get(node).reportedAt()).min(Instant::compareTo).orElseThrow();
        String nodes = silent.stream().map(Object::toString).collect(Collectors.joining(", "));
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
}

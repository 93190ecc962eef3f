package dev.keel.controlplane.drains;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.StepRun;

/**
 * Drains the surplus brokers through their agents before scale-down terminates them, and waits: done when every
 * agent reports its broker hosts no partition. It is a step of its own in an update, run outside any transaction
 * like every step, so the agents' reports see the requests at once. A machine whose agent is silent (for {@code keel.health.stale-after})
 * has no broker left to drain and is terminated as it is. A drain that fails, or outlasts
 * {@code keel.provisioning.drain-timeout}, fails the step with the broker and the reason named, and the machines are
 * left running: their partitions would go offline with them. The requests are durable, so a resumed step waits for
 * the same drains, until the same deadline.
 */
@Component
public class AgentBrokerDrain {

    private static final Logger log = LoggerFactory.getLogger(AgentBrokerDrain.class);
    private static final String DRAINS = "the surplus brokers to move their partitions away";

    private final DrainRequests requests;
    private final Clock clock;
    private final Duration staleAfter;
    private final Duration timeout;
    private final Duration pollInterval;

    AgentBrokerDrain(DrainRequests requests, Clock clock,
                     @Value("${keel.health.stale-after:20s}") Duration staleAfter,
                     @Value("${keel.provisioning.drain-timeout:10m}") Duration timeout,
                     @Value("${keel.provisioning.drain-poll-interval:1s}") Duration pollInterval) {
        this.requests = requests;
        this.clock = clock;
        this.staleAfter = staleAfter;
        this.timeout = timeout;
        this.pollInterval = pollInterval;
    }

    /**
     * Returns once the brokers of {@code nodesByMachine} (node ids by EC2 instance id, all at or above
     * {@code brokerCount}) have moved their partitions to the brokers that stay, or throws and the machines are kept;
     * waits as {@code run} may.
     */
    public void drain(UUID instanceId, int brokerCount, Map<String, Integer> nodesByMachine, StepRun run) {
        // Nodes 0..brokerCount-1 stay; the others are on their way out and take no partition.
        List<Integer> staying = IntStream.range(0, brokerCount).boxed().toList();
        nodesByMachine.forEach((machine, node) -> requests.request(instanceId, machine, node, staying));
        Map<String, Integer> pending = new TreeMap<>(nodesByMachine);
        Instant began = Objects.requireNonNullElseGet(run.waitingSince(DRAINS), clock::instant);
        while (true) {
            Instant now = clock.instant();
            pending.entrySet().removeIf(e -> done(instanceId, e.getKey(), e.getValue(), now));
            if (pending.isEmpty()) {
                return;
            }
            if (now.isAfter(began.plus(timeout))) {
                Map.Entry<String, Integer> first = pending.entrySet().iterator().next();
                throw new ProvisioningException("drain-timeout", broker(first.getKey(), first.getValue())
                        + " did not finish draining within " + timeout.toSeconds() + " s"
                        + remaining(requests.progress(instanceId, first.getKey()).orElseThrow())
                        + "; it keeps running so its partitions stay online", false);
            }
            run.pause(pollInterval, DRAINS, began, now);
        }
    }

    /** Whether the machine needs no more waiting; throws when its drain failed. */
    private boolean done(UUID instanceId, String machine, int node, Instant now) {
        DrainRequests.Progress progress = requests.progress(instanceId, machine).orElseThrow();
        if ("DRAINED".equals(progress.status())) {
            log.info("instance {}: {} drained", instanceId, broker(machine, node));
            return true;
        }
        if (progress.lastReportAt() == null || progress.lastReportAt().isBefore(now.minus(staleAfter))) {
            log.warn("instance {}: {} is not reporting, so no broker runs there to drain; terminating it as it is",
                    instanceId, broker(machine, node));
            return true;
        }
        if ("FAILED".equals(progress.status())) {
            throw new ProvisioningException("drain-failed", "Could not drain " + broker(machine, node)
                    + " before removing it: " + progress.message(), false);
        }
        return false;
    }

    private static String broker(String machine, int node) {
        return "broker " + node + " (" + machine + ")";
    }

    private static String remaining(DrainRequests.Progress progress) {
        String count = progress.partitionsRemaining() == null ? ""
                : ": " + progress.partitionsRemaining() + " partition replicas remain";
        return count + (progress.message() == null ? "" : " (last error: " + progress.message() + ")");
    }
}

package dev.keel.controlplane.instances;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.StepRun;

/**
 * The last step of a create, scale or repair, the control plane's own: it waits until no broker of the instance is
 * starting any more, every one it launched serving clients with the instance's credentials, so that the operation's
 * success (and {@code RUNNING}, {@code Ready}, a CLI's {@code --wait}, Terraform's apply) means a client given the
 * bootstrap servers can connect at once. A broker that served before and is unwell now does not hold it back: its
 * trouble is not this change's, and the instance's {@code Degraded} condition shows it. The wait is sized for a
 * machine to boot and pull the broker image ({@code keel.operations.serving-timeout}); past it the operation fails
 * naming the brokers that never served.
 */
@Component
class ServingGate {

    static final String STEP = "await-brokers-serving";
    private static final String WHAT = "the new brokers to serve clients with the instance's credentials";
    private static final Duration FIRST_LOOK = Duration.ofMillis(100);
    private static final Duration LONGEST_PAUSE = Duration.ofSeconds(5);

    private final InstanceRepository repository;
    private final BrokerStates brokers;
    private final Clock clock;
    private final Duration timeout;

    ServingGate(InstanceRepository repository, BrokerStates brokers, Clock clock,
                @Value("${keel.operations.serving-timeout:20m}") Duration timeout) {
        this.repository = repository;
        this.brokers = brokers;
        this.clock = clock;
        this.timeout = timeout;
    }

    /** Returns once no broker of the instance is starting; waits as {@code run} may. */
    void await(UUID instanceId, StepRun run) {
        Instant began = Objects.requireNonNullElseGet(run.waitingSince(WHAT), clock::instant);
        while (true) {
            Map<Integer, BrokerState> starting = brokers.of(repository.find(instanceId).orElseThrow()).entrySet()
                    .stream().filter(e -> e.getValue().phase() == BrokerState.Phase.STARTING)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            if (starting.isEmpty()) {
                return;
            }
            Instant now = clock.instant();
            Duration waited = Duration.between(began, now);
            if (waited.compareTo(timeout) > 0) {
                String brokers = starting.entrySet().stream()
                        .map(e -> "broker " + e.getKey() + " (" + e.getValue().message() + ")")
                        .collect(Collectors.joining(", "));
                throw new ProvisioningException("BROKERS_NOT_SERVING", "Within " + timeout.toMinutes() + " min, "
                        + brokers + " did not serve clients; the machine's console output and its container's log "
                        + "(docker logs keel-broker) say why.", false);
            }
            Duration pause = waited.compareTo(FIRST_LOOK) < 0 ? FIRST_LOOK
                    : waited.compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : waited;
            run.pause(pause, WHAT, began, now);
        }
    }
}

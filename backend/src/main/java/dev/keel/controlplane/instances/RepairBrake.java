package dev.keel.controlplane.instances;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The fleet-wide circuit breaker of automatic repair. When more than {@code keel.repair.brake.silent-share} of all
 * broker agents are silent at once (and at least {@code keel.repair.brake.min-silent} of them), the likeliest fault is
 * Keel's own (its ingest endpoint, certificate, DNS or secret, a load balancer), not thousands of customers' machines:
 * automatic repairs are suspended, which the gauge {@code keel.repair.circuit.open} and a log line say, until enough
 * agents report again; then repair resumes by itself. Repairs a user asks for are not braked. The census is read from
 * the database, so every replica agrees; at most once per {@code keel.repair.brake.refresh}.
 */
@Component
public class RepairBrake {

    private static final Logger log = LoggerFactory.getLogger(RepairBrake.class);

    private final FleetAgents agents;
    private final Clock clock;
    private final double silentShare;
    private final long minSilent;
    private final Duration refresh;
    private FleetAgents.Census census;
    private Instant censusAt = Instant.MIN;
    private boolean open;

    RepairBrake(FleetAgents agents, Clock clock, MeterRegistry meters,
                @Value("${keel.repair.brake.silent-share:0.2}") double silentShare,
                @Value("${keel.repair.brake.min-silent:3}") long minSilent,
                @Value("${keel.repair.brake.refresh:10s}") Duration refresh) {
        this.agents = agents;
        this.clock = clock;
        this.silentShare = silentShare;
        this.minSilent = minSilent;
        this.refresh = refresh;
        Gauge.builder("keel.agents.known", () -> census().known())
                .description("Broker agents of live instances that report from their current machine").register(meters);
        Gauge.builder("keel.agents.silent", () -> census().silent())
                .description("Of those, the agents silent for longer than keel.health.stale-after").register(meters);
        Gauge.builder("keel.repair.circuit.open", () -> open() ? 1 : 0)
                .description("1 while automatic repair is suspended because too many agents are silent at once")
                .register(meters);
    }

    /** Whether automatic repair is suspended now. */
    public synchronized boolean open() {
        FleetAgents.Census now = census();
        boolean silentFleet = now.silent() >= minSilent && now.silent() > silentShare * now.known();
        if (silentFleet != open) {
            open = silentFleet;
            if (open) {
                log.warn("Automatic repair suspended: {} of {} broker agents are silent, more than {} % of the fleet; "
                        + "the fault is likely Keel's own ingest path (see the runbook, RepairCircuitOpen)",
                        now.silent(), now.known(), Math.round(silentShare * 100));
            } else {
                log.info("Automatic repair resumed: {} of {} broker agents are silent", now.silent(), now.known());
            }
        }
        return open;
    }

    private synchronized FleetAgents.Census census() {
        Instant now = clock.instant();
        if (census == null || now.isAfter(censusAt.plus(refresh))) {
            census = agents.census();
            censusAt = now;
        }
        return census;
    }
}

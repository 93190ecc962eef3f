package dev.keel.controlplane.metrics;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.drains.DrainRequests;
import dev.keel.controlplane.instances.AgentAuthentication;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.InstanceNodes;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.FieldError;

/**
 * Where broker agents report. Not part of the user API: an agent authenticates with its
 * instance's token, and can report only for that instance's nodes ({@link InstanceNodes}).
 */
@RestController
class IngestController {

    static final int SCHEMA_VERSION = 1;

    private final AgentAuthentication agents;
    private final MetricsStore store;
    private final DrainRequests drains;
    private final Clock clock;
    private final BrokerHealth health;
    private final InstanceNodes nodes;

    IngestController(AgentAuthentication agents, MetricsStore store, DrainRequests drains, Clock clock,
                     BrokerHealth health, InstanceNodes nodes) {
        this.health = health;
        this.nodes = nodes;
        this.agents = agents;
        this.store = store;
        this.drains = drains;
        this.clock = clock;
    }

    /**
     * What the node is to do: {@code drain} its partitions to the brokers {@code drainTo}. The agent ignores fields it
     * does not know, so directives can be added.
     */
    record Directives(boolean drain, List<Integer> drainTo) {
    }

    @PostMapping("/ingest/v1/instances/{instanceId}/nodes/{nodeId}/reports")
    Directives report(@PathVariable UUID instanceId, @PathVariable int nodeId,
                      @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                      @RequestBody BrokerReport report) {
        Instance instance = agents.instance(instanceId, authorization);
        validate(instanceId, nodeId, report);
        nodes.requireKnown(instance, nodeId);
        if (store.record(instanceId, nodeId, clock.instant(), report).healthChanged()) {
            health.evaluate(instanceId);
        }
        BrokerReport.Drain drain = report.drain();
        List<Integer> drainTo = drains.onReport(instanceId, report.ec2InstanceId(),
                drain == null ? null : drain.status(), drain == null ? null : drain.partitionsRemaining(),
                drain == null ? null : drain.message()).orElse(null);
        return new Directives(drainTo != null, drainTo);
    }

    private static void validate(UUID instanceId, int nodeId, BrokerReport report) {
        List<FieldError> errors = new ArrayList<>();
        if (report.schemaVersion() == null || report.schemaVersion() != SCHEMA_VERSION) {
            errors.add(new FieldError("schemaVersion", "must be " + SCHEMA_VERSION));
        }
        if (!instanceId.equals(report.instanceId())) {
            errors.add(new FieldError("instanceId", "must be the instance in the path"));
        }
        if (report.nodeId() == null || report.nodeId() != nodeId || nodeId < 0) {
            errors.add(new FieldError("nodeId", "must be the node in the path, 0 or more"));
        }
        BrokerReport.Health health = report.health();
        if (health == null || health.processUp() == null || health.listenerReachable() == null
                || health.controllerQuorumKnown() == null) {
            errors.add(new FieldError("health", "must give processUp, listenerReachable and controllerQuorumKnown"));
        }
        BrokerReport.Drain drain = report.drain();
        if (drain != null && !BrokerReport.DRAIN_STATUSES.contains(drain.status())) {
            errors.add(new FieldError("drain.status", "must be one of " + BrokerReport.DRAIN_STATUSES));
        }
        if (drain != null && drain.partitionsRemaining() != null && drain.partitionsRemaining() < 0) {
            errors.add(new FieldError("drain.partitionsRemaining", "must be 0 or more"));
        }
        Map<String, Double> metrics = report.metrics() == null ? Map.of() : report.metrics();
        metrics.forEach((name, value) -> {
            if (BrokerMetric.byWireName(name).isEmpty()) {
                errors.add(new FieldError("metrics." + name, "is not a metric the control plane keeps"));
            } else if (value != null && (!Double.isFinite(value) || value < 0)) {
                errors.add(new FieldError("metrics." + name, "must be a finite number, 0 or more"));
            }
        });
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
    }
}

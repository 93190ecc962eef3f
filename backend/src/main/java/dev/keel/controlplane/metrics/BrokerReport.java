package dev.keel.controlplane.metrics;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * What a broker agent sends every 10 s; its JSON form is specified by
 * {@code contract/agent-report.schema.json}, which both this side and the agent are tested against. A null is
 * read only where that schema allows one ({@code @Nullable}).
 */
record BrokerReport(Integer schemaVersion, UUID instanceId, Integer nodeId, @Nullable String ec2InstanceId, Instant observedAt,
                    String agentVersion, Broker broker, Endpoint endpoint, Health health, Map<String, Double> metrics,
                    @Nullable Drain drain) {

    static final Set<String> DRAIN_STATUSES = Set.of("DRAINING", "DRAINED", "FAILED");

    record Broker(String kind, String version, @Nullable String standIn) {
    }

    record Endpoint(String host, Integer port, String zone, Boolean controller) {
    }

    record Health(String status, Boolean processUp, Boolean listenerReachable, Boolean controllerQuorumKnown,
                  @Nullable Integer quorumLeaderId, Integer restarts, @Nullable Long uptimeSeconds) {
    }

    record Drain(String status, @Nullable Integer partitionsRemaining, @Nullable String message) {
    }

    String address() {
        return endpoint == null ? null : endpoint.host() + ":" + endpoint.port();
    }

    String detail() {
        if (broker == null) {
            return null;
        }
        return broker.standIn() != null ? broker.standIn() : broker.kind() + " " + broker.version();
    }
}

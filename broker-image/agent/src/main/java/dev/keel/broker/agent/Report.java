package dev.keel.broker.agent;

/**
 * The payload the agent POSTs every 10 s to {@code <ingestUrl>/v1/instances/<instanceId>/nodes/<nodeId>/reports}.
 * Its JSON form is the ingest contract, {@code contract/agent-report.schema.json}; change both together and
 * bump {@link #SCHEMA_VERSION} on an incompatible change.
 */
public record Report(int schemaVersion, String instanceId, int nodeId, String ec2InstanceId, String observedAt,
                     String agentVersion, Broker broker, Endpoint endpoint, Health health, Metrics metrics,
                     Drain drain) {

    public static final int SCHEMA_VERSION = 1;

    /** kind: AUTOMQ on EC2; STAND_IN when the local runner runs Apache Kafka in its place. */
    public record Broker(String kind, String version, String standIn) {
    }

    public record Endpoint(String host, int port, String zone, boolean controller) {
    }

    /** status: UP (all three checks pass), DEGRADED (process up, a check fails), DOWN (process not running). */
    public record Health(String status, boolean processUp, boolean listenerReachable, boolean controllerQuorumKnown,
                         Integer quorumLeaderId, int restarts, Long uptimeSeconds) {
        public static Health of(boolean processUp, boolean listenerReachable, Integer leader, int restarts,
                                Long uptimeSeconds) {
            boolean quorum = leader != null && leader >= 0;
            String status = !processUp ? "DOWN" : listenerReachable && quorum ? "UP" : "DEGRADED";
            return new Health(status, processUp, listenerReachable, quorum, quorum ? leader : null, restarts,
                    uptimeSeconds);
        }
    }

    /**
     * Progress of a drain the control plane asked for (null when none was): DRAINING, DRAINED (the broker hosts no
     * partition), FAILED (cannot finish; {@code message} says why). {@code message} also carries a transient error.
     */
    public record Drain(String status, Integer partitionsRemaining, String message) {
        public static final String DRAINING = "DRAINING";
        public static final String DRAINED = "DRAINED";
        public static final String FAILED = "FAILED";
    }

    /** Broker metrics; a field is null when the broker did not expose it (e.g. not started yet). */
    public record Metrics(Double bytesInPerSec, Double bytesOutPerSec, Double messagesInPerSec,
                          Double produceRequestsPerSec, Double fetchRequestsPerSec, Integer partitions,
                          Integer underReplicatedPartitions, Integer offlinePartitions, Double produceLatencyP50Ms,
                          Double produceLatencyP99Ms) {
        public static Metrics empty() {
            return new Metrics(null, null, null, null, null, null, null, null, null, null);
        }
    }
}

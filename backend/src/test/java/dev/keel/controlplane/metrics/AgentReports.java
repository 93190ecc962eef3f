package dev.keel.controlplane.metrics;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import dev.keel.controlplane.support.ApiClient;

/** Reports as the broker agent sends them ({@code MetricsApiTest.reportsFollowTheIngestSchema} keeps them honest). */
public final class AgentReports {

    private final ApiClient ingest;
    private final UUID instanceId;

    public AgentReports(int port, UUID instanceId) {
        this("http://localhost:" + port, instanceId);
    }

    /** Reports to the control plane at {@code baseUrl} (its ingest API is under {@code /ingest/v1}). */
    public AgentReports(String baseUrl, UUID instanceId) {
        this.ingest = new ApiClient(baseUrl + "/ingest/v1", null);
        this.instanceId = instanceId;
    }

    /** Node {@code node} reports from its machine ({@link #machine}) at 10.0.0.{@code node}:9092. */
    public static Map<String, Object> report(UUID instanceId, int node, boolean processUp, Map<String, Double> metrics) {
        return report(instanceId, node, machine(node), "10.0.0." + node, processUp, metrics);
    }

    /** Node {@code node} reports from the machine {@code machineId}, where it listens on {@code host}:9092. */
    public static Map<String, Object> report(UUID instanceId, int node, String machineId, String host, boolean processUp,
                                             Map<String, Double> metrics) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("schemaVersion", 1);
        report.put("instanceId", instanceId.toString());
        report.put("nodeId", node);
        report.put("ec2InstanceId", machineId);
        report.put("observedAt", Instant.now().toString());
        report.put("agentVersion", "0.1.0");
        report.put("broker", Map.of("kind", "STAND_IN", "version", "4.4.0",
                "standIn", "Apache Kafka 4.4.0 standing in for AutoMQ; data is on local disk, not S3"));
        report.put("endpoint", Map.of("host", host, "port", 9092, "zone", "us-east-1a", "controller", node < 3));
        report.put("health", Map.of("status", processUp ? "UP" : "DOWN", "processUp", processUp, "listenerReachable", processUp,
                "controllerQuorumKnown", true, "quorumLeaderId", 0, "restarts", 0, "uptimeSeconds", 60));
        Map<String, Object> values = new LinkedHashMap<>();
        for (BrokerMetric metric : BrokerMetric.values()) {
            values.put(metric.wireName, metrics.getOrDefault(metric.wireName, null));
        }
        report.put("metrics", values);
        return report;
    }

    /** The machine the no-cloud driver launches for node {@code node}, as its inventory lists it. */
    static String machine(int node) {
        return "i-nocloud" + node;
    }

    /** The report with a drain's progress. */
    public static Map<String, Object> draining(Map<String, Object> report, String status, Integer partitionsRemaining,
                                        String message) {
        Map<String, Object> drain = new HashMap<>();
        drain.put("status", status);
        drain.put("partitionsRemaining", partitionsRemaining);
        drain.put("message", message);
        Map<String, Object> copy = new LinkedHashMap<>(report);
        copy.put("drain", drain);
        return copy;
    }

    public ApiClient.Response send(int node, String token, Map<String, Object> report) {
        ApiClient client = token == null ? ingest : ingest.header("Authorization", "Bearer " + token);
        return client.post("/instances/" + instanceId + "/nodes/" + node + "/reports", report);
    }
}

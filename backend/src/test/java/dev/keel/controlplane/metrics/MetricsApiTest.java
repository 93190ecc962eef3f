package dev.keel.controlplane.metrics;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.controlplane.instances.Condition;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsApiTest extends ApiTest {

    @Autowired
    InstanceTokens tokens;
    @Autowired
    MetricsStore store;
    @Autowired
    BrokerHealth health;
    @Autowired
    Instances instances;

    private ApiClient api;
    private UUID instanceId;
    private int brokers;

    @BeforeEach
    void runningInstance() {
        api = api(EDITOR);
        JsonNode instance = createRunningInstance(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 3, 3));
        instanceId = UUID.fromString(instance.get("id").asString());
        brokers = instance.get("inventory").get("brokers").size();
    }

    @Test
    void agentsReportWithTheirInstanceTokenOnly() {
        Map<String, Object> report = report(0, true, Map.of("bytesInPerSec", 100.0));
        assertThat(ingest(0, tokens.of(instanceId), report).status()).isEqualTo(204);
        assertThat(ingest(0, tokens.of(UUID.randomUUID()), report).status()).isEqualTo(401);
        assertThat(ingest(0, null, report).status()).isEqualTo(401);
    }

    @Test
    void malformedReportsAreRefusedWithTheFieldNamed() {
        Map<String, Object> withUnknown = report(0, true, Map.of());
        ((Map<String, Object>) withUnknown.get("metrics")).put("cpuTemperature", 50.0);
        ApiClient.Response unknown = ingest(0, tokens.of(instanceId), withUnknown);
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("errors").get(0).get("field").asString()).isEqualTo("metrics.cpuTemperature");
        ApiClient.Response negative = ingest(0, tokens.of(instanceId), report(0, true, Map.of("bytesInPerSec", -1.0)));
        assertThat(negative.status()).isEqualTo(400);
    }

    @Test
    void seriesCombineBrokersRatesAddUpAndLatenciesTakeTheSlowest() {
        for (int node = 0; node < brokers; node++) {
            assertThat(ingest(node, tokens.of(instanceId), report(node, true,
                    Map.of("bytesInPerSec", 1000.0 * (node + 1), "produceLatencyP99Ms", 5.0 + node))).status()).isEqualTo(204);
        }
        JsonNode series = api.get("/instances/" + instanceId + "/metrics?names=bytesInPerSec,produceLatencyP99Ms").json()
                .get("series");
        JsonNode bytesIn = series.get(0);
        assertThat(bytesIn.get("name").asString()).isEqualTo("bytesInPerSec");
        assertThat(bytesIn.get("unit").asString()).isEqualTo("bytes/s");
        double expected = 0;
        for (int node = 0; node < brokers; node++) {
            expected += 1000.0 * (node + 1);
        }
        assertThat(bytesIn.get("points").get(bytesIn.get("points").size() - 1).get("v").asDouble()).isEqualTo(expected);
        JsonNode latency = series.get(1);
        assertThat(latency.get("points").get(latency.get("points").size() - 1).get("v").asDouble()).isEqualTo(5.0 + brokers - 1);
    }

    @Test
    void badQueriesAreFieldErrors() {
        String path = "/instances/" + instanceId + "/metrics";
        assertThat(api.get(path + "?names=nope").json().get("errors").get(0).get("field").asString()).isEqualTo("names");
        assertThat(api.get(path + "?step=15").json().get("errors").get(0).get("field").asString()).isEqualTo("step");
        assertThat(api.get(path + "?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z").status()).isEqualTo(400);
    }

    @Test
    void rawSamplesRollUpIntoMinutes() {
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(1, ChronoUnit.MINUTES);
        store.record(instanceId, 0, minute, healthy(Map.of("bytesInPerSec", 100.0)));
        store.record(instanceId, 0, minute.plusSeconds(30), healthy(Map.of("bytesInPerSec", 300.0)));
        store.rollUp(MetricsStore.RAW, MetricsStore.MINUTE, Instant.now());

        var points = store.query(instanceId, java.util.List.of("bytesInPerSec"), minute, minute.plusSeconds(60),
                MetricsStore.MINUTE, 60);
        assertThat(points).singleElement().satisfies(p -> {
            assertThat(p.time()).isEqualTo(minute);
            assertThat(p.value()).isEqualTo(200.0);
        });
    }

    @Test
    void theDegradedConditionNamesTheBrokerThatIsDownOrSilent() {
        assertThat(condition().has("status")).as("not evaluated yet").isFalse();
        health.evaluate(instances.find(instanceId).orElseThrow());
        assertThat(condition().get("status").asString()).isEqualTo("Unknown");

        for (int node = 0; node < brokers; node++) {
            ingest(node, tokens.of(instanceId), report(node, true, Map.of()));
        }
        health.evaluate(instances.find(instanceId).orElseThrow());
        assertThat(condition().get("status").asString()).isEqualTo("False");

        ingest(1, tokens.of(instanceId), report(1, false, Map.of()));
        store.record(instanceId, 2, Instant.now().minusSeconds(120), healthy(Map.of()));
        health.evaluate(instances.find(instanceId).orElseThrow());
        JsonNode degraded = condition();
        assertThat(degraded.get("status").asString()).isEqualTo("True");
        assertThat(degraded.get("message").asString()).contains("broker 1 process is down").contains("broker 2 has not reported for");

        JsonNode shown = api.get("/instances/" + instanceId).json().get("inventory").get("brokers");
        assertThat(shown.get(0).get("health").get("status").asString()).isEqualTo("HEALTHY");
        assertThat(shown.get(1).get("health").get("status").asString()).isEqualTo("UNHEALTHY");
        assertThat(shown.get(1).get("health").get("message").asString()).isEqualTo("process is down");
        assertThat(shown.get(2).get("health").get("message").asString()).startsWith("has not reported for");
        assertThat(shown.get(2).get("address").asString()).as("a silent broker's address is no longer trusted")
                .endsWith(".nocloud.invalid:9092");
    }

    @Test
    void theBootstrapEndpointIsWhatTheBrokersAdvertise() {
        assertThat(api.get("/instances/" + instanceId).json().get("inventory").get("bootstrapServers").asString())
                .contains(".nocloud.invalid");
        for (int node = 0; node < brokers; node++) {
            ingest(node, tokens.of(instanceId), report(node, true, Map.of()));
        }
        JsonNode inventory = api.get("/instances/" + instanceId).json().get("inventory");
        assertThat(inventory.get("bootstrapServers").asString()).startsWith("10.0.0.0:9092,10.0.0.1:9092");
        assertThat(inventory.get("brokers").get(1).get("address").asString()).isEqualTo("10.0.0.1:9092");
    }

    @Test
    void reportsFollowTheIngestSchema() throws Exception {
        try (var schema = getClass().getResourceAsStream("/ingest/report.schema.json")) {
            var validator = com.networknt.schema.JsonSchemaFactory.getInstance(com.networknt.schema.SpecVersion.VersionFlag.V202012)
                    .getSchema(schema);
            String body = tools.jackson.databind.json.JsonMapper.builder().build()
                    .writeValueAsString(report(0, true, Map.of("bytesInPerSec", 1.0)));
            assertThat(validator.validate(body, com.networknt.schema.InputFormat.JSON)).isEmpty();
        }
    }

    private BrokerReport healthy(Map<String, Double> metrics) {
        return new BrokerReport(1, instanceId, 0, "i-0", Instant.now(), "0.1.0", null,
                new BrokerReport.Endpoint("10.0.0.1", 9092, "us-east-1a", true),
                new BrokerReport.Health("UP", true, true, true, 0, 0, 60L), metrics);
    }

    private JsonNode condition() {
        for (JsonNode condition : api.get("/instances/" + instanceId).json().get("conditions")) {
            if (condition.get("type").asString().equals(Condition.DEGRADED)) {
                return condition;
            }
        }
        return tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    }

    /** A report as the broker agent sends it; {@link #reportsFollowTheIngestSchema} keeps this honest. */
    private Map<String, Object> report(int node, boolean processUp, Map<String, Double> metrics) {
        Map<String, Object> report = new java.util.LinkedHashMap<>();
        report.put("schemaVersion", 1);
        report.put("instanceId", instanceId.toString());
        report.put("nodeId", node);
        report.put("ec2InstanceId", "i-0123456789abcdef" + node);
        report.put("observedAt", Instant.now().toString());
        report.put("agentVersion", "0.1.0");
        report.put("broker", Map.of("kind", "STAND_IN", "version", "4.4.0",
                "standIn", "Apache Kafka 4.4.0 standing in for AutoMQ; data is on local disk, not S3"));
        report.put("endpoint", Map.of("host", "10.0.0." + node, "port", 9092, "zone", "us-east-1a", "controller", node < 3));
        report.put("health", Map.of("status", processUp ? "UP" : "DOWN", "processUp", processUp, "listenerReachable", processUp,
                "controllerQuorumKnown", true, "quorumLeaderId", 0, "restarts", 0, "uptimeSeconds", 60));
        Map<String, Object> values = new java.util.LinkedHashMap<>();
        for (BrokerMetric metric : BrokerMetric.values()) {
            values.put(metric.wireName, metrics.getOrDefault(metric.wireName, null));
        }
        report.put("metrics", values);
        return report;
    }

    private ApiClient.Response ingest(int node, String token, Map<String, Object> report) {
        ApiClient client = new ApiClient("http://localhost:" + port + "/ingest/v1", null);
        if (token != null) {
            client = client.header("Authorization", "Bearer " + token);
        }
        return client.post("/instances/" + instanceId + "/nodes/" + node + "/reports", report);
    }
}

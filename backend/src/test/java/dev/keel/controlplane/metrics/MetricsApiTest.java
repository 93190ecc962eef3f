package dev.keel.controlplane.metrics;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.keel.controlplane.identity.InstanceTokens;
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
        Map<String, Object> report = report(true, Map.of("bytesInPerSec", 100.0));
        assertThat(ingest(0, tokens.of(instanceId), report).status()).isEqualTo(204);
        assertThat(ingest(0, tokens.of(UUID.randomUUID()), report).status()).isEqualTo(401);
        assertThat(ingest(0, null, report).status()).isEqualTo(401);
    }

    @Test
    void malformedReportsAreRefusedWithTheFieldNamed() {
        ApiClient.Response unknown = ingest(0, tokens.of(instanceId), report(true, Map.of("cpuTemperature", 50.0)));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("errors").get(0).get("field").asString()).isEqualTo("metrics.cpuTemperature");
        ApiClient.Response negative = ingest(0, tokens.of(instanceId), report(true, Map.of("bytesInPerSec", -1.0)));
        assertThat(negative.status()).isEqualTo(400);
    }

    @Test
    void seriesCombineBrokersRatesAddUpAndLatenciesTakeTheSlowest() {
        for (int node = 0; node < brokers; node++) {
            assertThat(ingest(node, tokens.of(instanceId), report(true,
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
        BrokerReport.Health up = new BrokerReport.Health(true, true, true, null);
        store.record(instanceId, 0, minute, new BrokerReport("a:9092", up, Map.of("bytesInPerSec", 100.0)));
        store.record(instanceId, 0, minute.plusSeconds(30), new BrokerReport("a:9092", up, Map.of("bytesInPerSec", 300.0)));
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
            ingest(node, tokens.of(instanceId), report(true, Map.of()));
        }
        health.evaluate(instances.find(instanceId).orElseThrow());
        assertThat(condition().get("status").asString()).isEqualTo("False");

        ingest(1, tokens.of(instanceId), report(false, Map.of()));
        store.record(instanceId, 2, Instant.now().minusSeconds(120),
                new BrokerReport("c:9092", new BrokerReport.Health(true, true, true, null), Map.of()));
        health.evaluate(instances.find(instanceId).orElseThrow());
        JsonNode degraded = condition();
        assertThat(degraded.get("status").asString()).isEqualTo("True");
        assertThat(degraded.get("message").asString()).contains("broker 1 process is down").contains("broker 2 has not reported for");
    }

    private JsonNode condition() {
        for (JsonNode condition : api.get("/instances/" + instanceId).json().get("conditions")) {
            if (condition.get("type").asString().equals(BrokerHealth.CONDITION)) {
                return condition;
            }
        }
        return tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    }

    private static Map<String, Object> report(boolean processUp, Map<String, Double> metrics) {
        return Map.of("address", "10.0.0.1:9092",
                "health", Map.of("processUp", processUp, "listenerReachable", true, "quorumKnown", true),
                "metrics", metrics);
    }

    private ApiClient.Response ingest(int node, String token, Map<String, Object> report) {
        ApiClient client = new ApiClient("http://localhost:" + port + "/ingest/v1", null);
        if (token != null) {
            client = client.header("Authorization", "Bearer " + token);
        }
        return client.post("/instances/" + instanceId + "/nodes/" + node + "/reports", report);
    }
}

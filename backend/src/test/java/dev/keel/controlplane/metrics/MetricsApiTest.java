package dev.keel.controlplane.metrics;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;

import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.controlplane.instances.Condition;
import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class MetricsApiTest extends ApiTest {

    @Autowired
    InstanceTokens tokens;
    @Autowired
    MetricsStore store;
    @Autowired
    BrokerHealth health;
    @Autowired
    DataSource dataSource;
    @Autowired
    JdbcClient jdbc;
    @Autowired
    MeterRegistry meters;

    private ApiClient api;
    private AgentReports reports;
    private UUID instanceId;
    private int brokers;

    @BeforeEach
    void runningInstance() {
        api = api(EDITOR);
        Map<String, Object> body = instanceBody(registerAccount(api).get("id").asString(), "S3", 3, 3);
        // Health and metrics here; the credentials a serving broker waits for are the Kafka access tests'.
        body.put("listenerSecurity", "PLAINTEXT_UNAUTHENTICATED");
        JsonNode instance = createInstancePlayedByTest(api, body);
        instanceId = UUID.fromString(instance.get("id").asString());
        brokers = instance.get("inventory").get("brokers").size();
        reports = new AgentReports(port, instanceId);
    }

    @Test
    void agentsReportWithTheirInstanceTokenOnly() {
        Map<String, Object> report = AgentReports.report(instanceId, 0, true, Map.of("bytesInPerSec", 100.0));
        assertThat(reports.send(0, tokens.of(instanceId), report).status()).isEqualTo(200);
        assertThat(reports.send(0, tokens.of(UUID.randomUUID()), report).status()).isEqualTo(401);
        assertThat(reports.send(0, null, report).status()).isEqualTo(401);
    }

    @Test
    void malformedReportsAreRefusedWithTheFieldNamed() {
        Map<String, Object> withUnknown = AgentReports.report(instanceId, 0, true, Map.of());
        ((Map<String, Object>) withUnknown.get("metrics")).put("cpuTemperature", 50.0);
        ApiClient.Response unknown = reports.send(0, tokens.of(instanceId), withUnknown);
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("errors").get(0).get("field").asString()).isEqualTo("metrics.cpuTemperature");
        ApiClient.Response negative = reports.send(0, tokens.of(instanceId), AgentReports.report(instanceId, 0, true, Map.of("bytesInPerSec", -1.0)));
        assertThat(negative.status()).isEqualTo(400);
        ApiClient.Response badDrain = reports.send(0, tokens.of(instanceId),
                AgentReports.draining(AgentReports.report(instanceId, 0, true, Map.of()), "PAUSED", -1, null));
        assertThat(badDrain.status()).isEqualTo(400);
        assertThat(badDrain.json().get("errors").toString()).contains("drain.status", "drain.partitionsRemaining");
    }

    @Test
    void aReportForANodeTheInstanceDoesNotHaveIsRefusedAndNotStored() {
        double invalidBefore = ingestOutcome("invalid");
        ApiClient.Response refused = reports.send(brokers, tokens.of(instanceId),
                AgentReports.report(instanceId, brokers, true, Map.of("bytesInPerSec", 100.0)));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("nodeId");
        assertThat(refused.json().get("errors").get(0).get("message").asString())
                .isEqualTo("is not a node of instance " + instanceId + ": it has nodes 0 to " + (brokers - 1));
        assertThat(ingestOutcome("invalid")).as("counted as refused").isEqualTo(invalidBefore + 1);
        for (String table : List.of("broker_reports", "metric_samples")) {
            assertThat(jdbc.sql("SELECT count(*) FROM " + table + " WHERE instance_id = ? AND node_id = ?")
                    .params(instanceId, brokers).query(Long.class).single()).as(table).isZero();
        }
        assertThat(reports.send(brokers - 1, tokens.of(instanceId), AgentReports.report(instanceId, brokers - 1, true,
                Map.of())).status()).as("its last node").isEqualTo(200);
    }

    private double ingestOutcome(String outcome) {
        return meters.get("keel.ingest.reports").tag("outcome", outcome).counter().count();
    }

    @Test
    void seriesCombineBrokersRatesAddUpAndLatenciesTakeTheSlowest() {
        for (int node = 0; node < brokers; node++) {
            assertThat(reports.send(node, tokens.of(instanceId), AgentReports.report(instanceId, node, true,
                    Map.of("bytesInPerSec", 1000.0 * (node + 1), "produceLatencyP99Ms", 5.0 + node))).status()).isEqualTo(200);
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

        var points = store.query(instanceId, List.of("bytesInPerSec"), minute, minute.plusSeconds(60),
                MetricsStore.MINUTE, 60);
        assertThat(points).singleElement().satisfies(p -> {
            assertThat(p.time()).isEqualTo(minute);
            assertThat(p.value()).isEqualTo(200.0);
        });
    }

    @Test
    void theDegradedConditionNamesTheBrokerThatIsDownOrSilent() {
        for (int node = 0; node < brokers; node++) {
            reports.send(node, tokens.of(instanceId), AgentReports.report(instanceId, node, true, Map.of()));
        }
        health.evaluateAll();
        assertThat(condition().get("status").asString()).isEqualTo("False");

        reports.send(1, tokens.of(instanceId), AgentReports.report(instanceId, 1, false, Map.of()));
        store.record(instanceId, 2, Instant.now().minusSeconds(120), report(2, AgentReports.machine(2), Map.of()));
        health.evaluateAll();
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
    void evaluatingHealthGivesBackEveryConnectionItTakes() {
        int poolSize = ((HikariDataSource) dataSource).getMaximumPoolSize();

        // Health runs every few seconds for as long as the control plane runs: a run that kept a connection would
        // leave the next runs (and every request) waiting for the pool, then failing, once it is used up.
        assertThatCode(() -> {
            for (int run = 0; run < poolSize + 2; run++) {
                health.evaluateAll();
            }
        }).doesNotThrowAnyException();
    }

    @Test
    void theBootstrapEndpointIsWhatTheBrokersAdvertise() {
        assertThat(api.get("/instances/" + instanceId).json().get("inventory").get("bootstrapServers").asString())
                .contains(".nocloud.invalid");
        for (int node = 0; node < brokers; node++) {
            reports.send(node, tokens.of(instanceId), AgentReports.report(instanceId, node, true, Map.of()));
        }
        JsonNode inventory = api.get("/instances/" + instanceId).json().get("inventory");
        assertThat(inventory.get("bootstrapServers").asString()).startsWith("10.0.0.0:9092,10.0.0.1:9092");
        assertThat(inventory.get("brokers").get(1).get("address").asString()).isEqualTo("10.0.0.1:9092");
    }

    @Test
    void theBootstrapEndpointListsOnlyTheBrokersThatServe() {
        reports.send(0, tokens.of(instanceId), AgentReports.report(instanceId, 0, true, Map.of()));
        reports.send(1, tokens.of(instanceId), AgentReports.report(instanceId, 1, false, Map.of()));
        store.record(instanceId, 2, Instant.now().minusSeconds(120), report(2, AgentReports.machine(2), Map.of()));

        // Broker 1's process is down and broker 2 is silent: neither would answer a client.
        assertThat(api.get("/instances/" + instanceId).json().get("inventory").get("bootstrapServers").asString())
                .isEqualTo("10.0.0.0:9092");

        reports.send(0, tokens.of(instanceId), AgentReports.report(instanceId, 0, false, Map.of()));
        assertThat(api.get("/instances/" + instanceId).json().get("inventory").get("bootstrapServers").isNull())
                .as("none serves").isTrue();
    }

    @Test
    void aScaleUpShowsItsNewBrokersAsStartingAndEndsOnceTheyServe() {
        for (int node = 0; node < brokers; node++) {
            reports.send(node, tokens.of(instanceId), AgentReports.report(instanceId, node, true, Map.of()));
        }
        // The first new node id was a broker before, on a machine a scale-down retired: its last report is old.
        store.record(instanceId, brokers, Instant.now().minus(Duration.ofMinutes(30)), report(brokers, "i-retired", Map.of()));
        String path = "/instances/" + instanceId;
        ApiClient.Response scaled = api.header("If-Match", api.get(path).header("ETag").orElseThrow()).patch(path, Map.of("aku", 6));
        assertThat(scaled.status()).as(scaled.toString()).isEqualTo(202);
        String operation = scaled.json().get("id").asString();
        JsonNode waiting = api.await("/operations/" + operation, op -> op.at("/steps").findValuesAsString("state")
                .equals(List.of("SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "RUNNING")),
                OPERATION_TIMEOUT);
        assertThat(waiting.at("/steps/4/name").asString()).isEqualTo("await-brokers-serving");
        JsonNode inventory = api.get(path).json().get("inventory");
        int scaledTo = inventory.get("brokers").size();
        assertThat(scaledTo).isGreaterThan(brokers);
        assertThat(api.get(path).json().get("state").asString()).as("not RUNNING before its brokers serve")
                .isEqualTo("CHANGING");
        assertThat(inventory.get("brokers").get(brokers).get("health").get("status").asString()).isEqualTo("STARTING");

        health.evaluateAll(Instant.now().plus(Duration.ofMinutes(11)));
        JsonNode starting = condition();
        assertThat(starting.get("status").asString()).as(starting.toString()).isEqualTo("Unknown");
        assertThat(starting.get("reason").asString()).isEqualTo(BrokerHealth.BROKERS_STARTING);
        assertThat(starting.get("message").asString()).contains("Brokers " + brokers + ", ")
                .contains("are starting (scale-up in progress)");
        assertThat(inventory.get("bootstrapServers").asString().split(",")).as("only the brokers that serve")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, brokers).mapToObj(n -> "10.0.0." + n + ":9092")
                        .toList());

        for (int node = brokers; node < scaledTo; node++) {
            reports.send(node, tokens.of(instanceId), AgentReports.report(instanceId, node, true, Map.of()));
        }
        awaitOperation(api, operation, "SUCCEEDED");
        JsonNode running = api.get(path).json();
        assertThat(running.get("state").asString()).isEqualTo("RUNNING");
        assertThat(running.get("inventory").get("bootstrapServers").asString().split(",")).hasSize(scaledTo);
        assertThat(condition().get("status").asString()).as("evaluated as the new brokers reported").isEqualTo("False");
    }

    @Test
    void reportsFollowTheIngestSchema() throws Exception {
        try (var schema = java.nio.file.Files.newInputStream(java.nio.file.Path.of("../contract/agent-report.schema.json"))) {
            var validator = com.networknt.schema.JsonSchemaFactory.getInstance(com.networknt.schema.SpecVersion.VersionFlag.V202012)
                    .getSchema(schema);
            String body = tools.jackson.databind.json.JsonMapper.builder().build()
                    .writeValueAsString(AgentReports.report(instanceId, 0, true, Map.of("bytesInPerSec", 1.0)));
            assertThat(validator.validate(body, com.networknt.schema.InputFormat.JSON)).isEmpty();
            String draining = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(
                    AgentReports.draining(AgentReports.report(instanceId, 4, true, Map.of()), "DRAINING", 3, null));
            assertThat(validator.validate(draining, com.networknt.schema.InputFormat.JSON)).isEmpty();
        }
    }

    private BrokerReport healthy(Map<String, Double> metrics) {
        return report(0, AgentReports.machine(0), metrics);
    }

    /** A healthy report of node {@code node} from {@code machine}. */
    private BrokerReport report(int node, String machine, Map<String, Double> metrics) {
        return new BrokerReport(1, instanceId, node, machine, Instant.now(), "0.1.0", null,
                new BrokerReport.Endpoint("10.0.0." + node, 9092, "us-east-1a", true),
                new BrokerReport.Health("UP", true, true, true, 0, 0, 60L), metrics, null);
    }

    private JsonNode condition() {
        for (JsonNode condition : api.get("/instances/" + instanceId).json().get("conditions")) {
            if (condition.get("type").asString().equals(Condition.DEGRADED)) {
                return condition;
            }
        }
        return tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    }
}

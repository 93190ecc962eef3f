package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReporterTest {
    record Received(String path, String authorization, String body) {
    }

    /** A drain that only remembers it was asked. */
    static final class RecordingDrain implements Reporter.Drainable {
        volatile boolean requested;
        volatile List<Integer> drainTo;

        @Override
        public void request(List<Integer> to) {
            requested = true;
            drainTo = to;
        }

        @Override
        public Report.Drain progress() {
            return requested ? new Report.Drain(Report.Drain.DRAINING, 7, null) : null;
        }
    }

    HttpServer server;
    final List<Received> received = new CopyOnWriteArrayList<>();
    /** The control plane's answer: 202 and no body, unless a test sets one. */
    volatile String answer;
    @TempDir
    Path dir;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            received.add(new Received(ex.getRequestURI().getPath(), ex.getRequestHeaders().getFirst("Authorization"),
                    new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            if (answer == null) {
                ex.sendResponseHeaders(202, -1);
            } else {
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            }
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void postsASchemaValidReportWithTheBearerToken() throws Exception {
        NodeSpec spec = NodeSpec.parse(Specs.json("S3", "1.7.3", 3, "").replace("https://ingest.keel.example/",
                "http://127.0.0.1:" + server.getAddress().getPort() + "/ingest"));
        try (ServerSocket listener = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Report.Metrics metrics = new Report.Metrics(1024.0, 2048.0, 10.0, 5.0, 7.0, 12, 0, 0, 1.5, 9.0);
            Reporter reporter = new Reporter(spec, new NodeIdentity(1, "us-east-1b", "127.0.0.1", "i-1"),
                    new Report.Broker("AUTOMQ", "1.7.3", null),
                    new Report.Endpoint("127.0.0.1", listener.getLocalPort(), "us-east-1b", true),
                    new Reporter.Sources(() -> true, () -> 2, () -> Instant.parse("2026-11-22T10:00:00Z"),
                            () -> new MetricsSource.Sample(metrics, 0), new RecordingDrain()),
                    dir.resolve("last-report.json"),
                    Clock.fixed(Instant.parse("2026-11-22T10:01:40Z"), ZoneOffset.UTC));
            assertThat(reporter.send(reporter.build())).isEqualTo(202);
        }
        assertThat(received).hasSize(1);
        Received r = received.get(0);
        assertThat(r.path()).isEqualTo("/ingest/v1/instances/" + Specs.INSTANCE + "/nodes/1/reports");
        assertThat(r.authorization()).isEqualTo("Bearer s3cr3t-token");
        assertThat(r.body()).doesNotContain("s3cr3t");
        assertThat(validate(r.body())).isEmpty();
        JsonNode json = new ObjectMapper().readTree(r.body());
        assertThat(json.at("/health/status").asText()).isEqualTo("UP");
        assertThat(json.at("/health/uptimeSeconds").asInt()).isEqualTo(100);
        assertThat(json.at("/health/restarts").asInt()).isEqualTo(2);
        assertThat(json.at("/metrics/produceLatencyP99Ms").asDouble()).isEqualTo(9.0);
        assertThat(Files.readString(dir.resolve("last-report.json"))).isEqualTo(r.body());
    }

    @Test
    void aDownBrokerStillReportsValidly() throws Exception {
        NodeSpec spec = NodeSpec.parse(Specs.json("S3", "1.7.3", 3, "").replace("\"ingestToken\":\"s3cr3t-token\"",
                "\"ingestToken\":null"));
        Reporter reporter = new Reporter(spec, new NodeIdentity(0, "us-east-1a", "127.0.0.1", null),
                new Report.Broker("STAND_IN", "1.7.3", "Apache Kafka 4.4.0"),
                new Report.Endpoint("127.0.0.1", 1, "us-east-1a", true),
                new Reporter.Sources(() -> false, () -> 0, () -> null, MetricsSource.none(), new RecordingDrain()),
                dir.resolve("last-report.json"), Clock.systemUTC());
        assertThat(reporter.send(reporter.build())).as("no token: not sent").isEqualTo(-1);
        String body = Files.readString(dir.resolve("last-report.json"));
        assertThat(validate(body)).isEmpty();
        assertThat(new ObjectMapper().readTree(body).at("/health/status").asText()).isEqualTo("DOWN");
    }

    @Test
    void aDrainDirectiveStartsTheDrainAndItsProgressTravelsInTheNextReports() throws Exception {
        NodeSpec spec = NodeSpec.parse(Specs.json("S3", "1.7.3", 6, "").replace("https://ingest.keel.example/",
                "http://127.0.0.1:" + server.getAddress().getPort() + "/ingest"));
        RecordingDrain drain = new RecordingDrain();
        Reporter reporter = new Reporter(spec, new NodeIdentity(5, "us-east-1c", "127.0.0.1", "i-5"),
                new Report.Broker("AUTOMQ", "1.7.3", null), new Report.Endpoint("127.0.0.1", 1, "us-east-1c", false),
                new Reporter.Sources(() -> true, () -> 0, Instant::now, MetricsSource.none(), drain),
                null, Clock.systemUTC());

        assertThat(reporter.send(reporter.build())).isEqualTo(202);
        assertThat(drain.requested).as("no directive, no drain").isFalse();
        assertThat(new ObjectMapper().readTree(received.get(0).body()).get("drain").isNull()).isTrue();

        answer = "{\"drain\":true,\"drainTo\":[0,1,2],\"someLaterDirective\":1}";
        assertThat(reporter.send(reporter.build())).isEqualTo(200);
        assertThat(drain.requested).isTrue();
        assertThat(drain.drainTo).containsExactly(0, 1, 2);

        reporter.send(reporter.build());
        String third = received.get(2).body();
        assertThat(validate(third)).isEmpty();
        assertThat(new ObjectMapper().readTree(third).at("/drain/status").asText()).isEqualTo("DRAINING");
        assertThat(new ObjectMapper().readTree(third).at("/drain/partitionsRemaining").asInt()).isEqualTo(7);
    }

    @Test
    void theSchemaRejectsAnIncompleteReport() throws Exception {
        assertThat(validate("{\"schemaVersion\":1,\"instanceId\":\"" + Specs.INSTANCE + "\"}")).isNotEmpty();
    }

    /** The ingest contract, which the control plane is tested against too. */
    static final java.nio.file.Path REPORT_SCHEMA = java.nio.file.Path.of("../../contract/agent-report.schema.json");

    static Set<ValidationMessage> validate(String body) throws Exception {
        try (InputStream schema = Files.newInputStream(REPORT_SCHEMA)) {
            JsonSchema s = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(schema);
            return s.validate(new ObjectMapper().readTree(body));
        }
    }
}

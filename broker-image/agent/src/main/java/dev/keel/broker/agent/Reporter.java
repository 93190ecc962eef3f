package dev.keel.broker.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every {@code interval} (10 s) builds a {@link Report} — health (process up, listener reachable, quorum leader
 * known) and metrics — writes it to {@code lastReportFile} and POSTs it to
 * {@code <ingestUrl>/v1/instances/<instanceId>/nodes/<nodeId>/reports} with {@code Authorization: Bearer <token>}.
 * The token is never logged nor put in the report; without a token nothing is sent (warned once). The control
 * plane answers 200 with its directives ({@code {"drain": true, "drainTo": [0, 1, 2]}} before it retires the broker)
 * or 204 with none.
 */
public final class Reporter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Reporter.class);
    static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** What the reporter looks at. */
    public record Sources(BooleanSupplier processUp, IntSupplier restarts, Supplier<Instant> startedAt,
                          MetricsSource metrics, Drainable drain) {
    }

    /** What drains the broker when the control plane answers a report with {@code {"drain": true, "drainTo": […]}}. */
    public interface Drainable {
        /** Moves the broker's partitions to the brokers {@code drainTo} (empty: to any other broker). */
        void request(List<Integer> drainTo);

        /** Null until requested. */
        Report.Drain progress();
    }

    /** The control plane's answer to a report. */
    record Directives(boolean drain, List<Integer> drainTo) {
    }

    private final NodeSpec spec;
    private final NodeIdentity self;
    private final Report.Broker broker;
    private final Report.Endpoint endpoint;
    private final Sources sources;
    private final URI target;
    private final String token;
    private final Path lastReportFile;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private ScheduledExecutorService scheduler;
    private volatile int lastStatus = -1;
    private volatile Integer quorumLeaderId;
    private boolean warnedNoToken;

    public Reporter(NodeSpec spec, NodeIdentity self, Report.Broker broker, Report.Endpoint endpoint, Sources sources,
                    Path lastReportFile, Clock clock) {
        this.spec = spec;
        this.self = self;
        this.broker = broker;
        this.endpoint = endpoint;
        this.sources = sources;
        this.target = reportUri(spec.ingestUrl(), spec.instanceId().toString(), self.nodeId());
        this.token = spec.ingestToken();
        this.lastReportFile = lastReportFile;
        this.clock = clock;
    }

    public static URI reportUri(URI ingestUrl, String instanceId, int nodeId) {
        return IngestUri.of(ingestUrl, "/v1/instances/" + instanceId + "/nodes/" + nodeId + "/reports");
    }

    public void start(Duration interval) {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "reporter");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleAtFixedRate(this::tick, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void tick() {
        try {
            send(build());
        } catch (RuntimeException e) {
            LOG.warn("report failed: {}", e.toString());
        }
    }

    public Report build() {
        boolean up = sources.processUp().getAsBoolean();
        boolean reachable = up && reachable(endpoint.host(), endpoint.port());
        MetricsSource.Sample sample = up ? sources.metrics().sample() : new MetricsSource.Sample(Report.Metrics.empty(), null);
        quorumLeaderId = sample.quorumLeaderId();
        Instant started = sources.startedAt().get();
        Long uptime = up && started != null ? Duration.between(started, clock.instant()).toSeconds() : null;
        return new Report(Report.SCHEMA_VERSION, spec.instanceId().toString(), self.nodeId(), self.ec2InstanceId(),
                clock.instant().truncatedTo(ChronoUnit.MILLIS).toString(), Main.agentVersion(), broker, endpoint,
                Report.Health.of(up, reachable, sample.quorumLeaderId(), sources.restarts().getAsInt(), uptime),
                sample.metrics(), sources.drain().progress());
    }

    /** The KRaft quorum leader the last report saw; null when none was known (or the broker was down). */
    public Integer quorumLeaderId() {
        return quorumLeaderId;
    }

    /** Writes the report locally and POSTs it; returns the HTTP status (or -1 when not sent). */
    public int send(Report report) {
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(report);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        if (lastReportFile != null) {
            try {
                Path tmp = lastReportFile.resolveSibling(lastReportFile.getFileName() + ".tmp");
                Files.write(tmp, body);
                Files.move(tmp, lastReportFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                LOG.debug("could not write {}: {}", lastReportFile, e.toString());
            }
        }
        if (token == null) {
            if (!warnedNoToken) {
                LOG.warn("node spec has no ingestToken: reports are written to {} but not sent to {}", lastReportFile,
                        target);
                warnedNoToken = true;
            }
            return -1;
        }
        HttpRequest req = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        try {
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            int status = resp.statusCode();
            Directives directives = status == 200 ? directives(resp.body()) : null;
            if (directives != null && directives.drain()) {
                sources.drain().request(directives.drainTo() == null ? List.of() : directives.drainTo());
            }
            if (status != lastStatus) {
                if (status / 100 == 2) {
                    LOG.info("reports accepted by {} (HTTP {})", target, status);
                } else {
                    LOG.warn("report rejected by {}: HTTP {}", target, status);
                }
            }
            lastStatus = status;
            return status;
        } catch (IOException e) {
            if (lastStatus != 0) {
                LOG.warn("could not send report to {}: {}", target, e.toString());
            }
            lastStatus = 0;
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private static Directives directives(String body) {
        try {
            return JSON.readValue(body, Directives.class);
        } catch (IOException e) {
            LOG.warn("ignoring an unreadable answer to a report: {}", e.toString());
            return new Directives(false, null);
        }
    }

    static boolean reachable(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}

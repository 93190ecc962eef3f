package dev.keel.broker.agent.access;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.networknt.schema.ValidationMessage;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for the control plane's ingest access endpoint, speaking exactly the design's wire shape: {@code GET}
 * answers the desired access set by the test, {@code POST} takes a report (refused with 400 when it breaks the
 * contract, as the control plane does) and answers 204; a wrong bearer token gets 401. Every document it serves or
 * takes is checked against {@code contract/agent-access.schema.json}.
 */
final class ControlPlaneStandIn implements AutoCloseable {
    static final String INSTANCE = "3f2a8c1e-5b7d-4e9f-a1c3-0d2e4f6a8b9c";
    static final String TOKEN = "ingest-token-of-the-instance";

    private final HttpServer server;
    private volatile String desired = "{\"users\":[],\"removedUsers\":[],\"acls\":[],\"removedAcls\":[],\"topicChanges\":[]}";
    final List<String> reports = new CopyOnWriteArrayList<>();
    final AtomicInteger pulls = new AtomicInteger();

    ControlPlaneStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ingest/v1/instances/" + INSTANCE + "/access", this::handle);
        server.start();
    }

    URI ingestUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ingest");
    }

    AccessIngest ingest() {
        return new AccessIngest(ingestUrl(), INSTANCE, TOKEN);
    }

    /** What the next GET answers; it must follow the contract. */
    void desire(DesiredAccess access) throws IOException {
        String json = AccessIngest.JSON.writeValueAsString(access);
        Set<ValidationMessage> errors = AccessSchema.validate(AccessSchema.DESIRED, json);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("the test's desired access breaks the contract: " + errors);
        }
        desired = json;
    }

    AccessReport lastReport() throws IOException {
        return AccessIngest.JSON.readValue(reports.get(reports.size() - 1), AccessReport.class);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            if (!("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
                ex.sendResponseHeaders(401, -1);
                return;
            }
            switch (ex.getRequestMethod()) {
                case "GET" -> {
                    pulls.incrementAndGet();
                    answer(ex, 200, "application/json", desired);
                }
                case "POST" -> {
                    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    Set<ValidationMessage> errors = AccessSchema.validate(AccessSchema.REPORT, body);
                    if (!errors.isEmpty()) {
                        answer(ex, 400, "application/problem+json", AccessIngest.JSON.writeValueAsString(
                                Map.of("type", "validation-failed", "status", 400,
                                        "detail", errors.toString())));
                        return;
                    }
                    reports.add(body);
                    ex.sendResponseHeaders(204, -1);
                }
                default -> ex.sendResponseHeaders(405, -1);
            }
        }
    }

    private static void answer(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

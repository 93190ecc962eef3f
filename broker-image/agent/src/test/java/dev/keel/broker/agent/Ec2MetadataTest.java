package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** The agent's reads of instance metadata against a stand-in for the instance metadata service that requires IMDSv2. */
class Ec2MetadataTest {

    private static final String TOKEN = "imds-session-token";
    private final HttpServer imds = imds(Map.of(
            "/latest/user-data", "{\"instanceId\":\"x\"}",
            "/latest/meta-data/instance-id", "i-0123456789abcdef0",
            "/latest/meta-data/tags/instance/byoc:node-id", "2"));

    @AfterEach
    void stop() {
        imds.stop(0);
    }

    @Test
    void readsWithASessionTokenAndAnswersNullForATagMetadataDoesNotShow() throws IOException {
        Ec2Metadata metadata = new Ec2Metadata(URI.create("http://127.0.0.1:" + imds.getAddress().getPort()));

        assertThat(metadata.userData()).isEqualTo("{\"instanceId\":\"x\"}");
        assertThat(metadata.instanceId()).isEqualTo("i-0123456789abcdef0");
        assertThat(metadata.tag("byoc:node-id")).isEqualTo("2");
        assertThat(metadata.tag("byoc:absent")).isNull();
    }

    /** Answers {@code paths} only to requests bearing the token it hands out on PUT /latest/api/token. */
    private static HttpServer imds(Map<String, String> paths) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                String path = exchange.getRequestURI().getPath();
                if (path.equals("/latest/api/token") && exchange.getRequestMethod().equals("PUT")) {
                    // IMDS echoes the lifetime asked for, which the SDK's client insists on.
                    exchange.getResponseHeaders().add("X-aws-ec2-metadata-token-ttl-seconds",
                            exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token-ttl-seconds"));
                    respond(exchange, 200, TOKEN);
                } else if (!TOKEN.equals(exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token"))) {
                    respond(exchange, 401, "");
                } else {
                    String body = paths.get(path);
                    respond(exchange, body == null ? 404 : 200, body == null ? "" : body);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }
}

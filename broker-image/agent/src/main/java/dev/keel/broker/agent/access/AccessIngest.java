package dev.keel.broker.agent.access;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.keel.broker.agent.IngestUri;

/**
 * The control plane's side of access: {@code GET} the desired access and {@code POST} the report at
 * {@code <ingestUrl>/v1/instances/<instanceId>/access}, with {@code Authorization: Bearer <ingest token>}. The
 * token and the passwords in the answer are never logged.
 */
public final class AccessIngest {
    static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The control plane did not answer as the contract says; the pass is skipped. */
    public static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    private final URI uri;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    public AccessIngest(URI ingestUrl, String instanceId, String token) {
        this.uri = IngestUri.of(ingestUrl, "/v1/instances/" + instanceId + "/access");
        this.token = token;
    }

    public URI uri() {
        return uri;
    }

    public DesiredAccess pull() throws IOException, InterruptedException {
        HttpResponse<byte[]> resp = http.send(request().header("Accept", "application/json").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (resp.statusCode() != 200) {
            throw new Refused("GET " + uri + ": HTTP " + resp.statusCode());
        }
        return JSON.readValue(resp.body(), DesiredAccess.class);
    }

    public void post(AccessReport report) throws IOException, InterruptedException {
        HttpResponse<String> resp = http.send(request().header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(report))).build(),
                HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() / 100 != 2) {
            // A 400 carries the contract's field errors (problem+json): the reason the report was refused.
            throw new Refused("POST " + uri + ": HTTP " + resp.statusCode() + " " + resp.body());
        }
    }

    private HttpRequest.Builder request() {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token);
    }
}

package dev.keel.controlplane.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client for the API under test: real requests, real tokens, JSON in and out. */
public final class ApiClient {

    private static final JsonMapper json = JsonMapper.builder().build();
    private final HttpClient http;
    private final String base;
    // Asked for each request: a test can outlast an access token, and Tokens renews it.
    private final Supplier<String> token;
    private final Map<String, String> headers;

    public ApiClient(String base, String token) {
        this(base, () -> token, Map.of(), HttpClient.newHttpClient());
    }

    private ApiClient(String base, Supplier<String> token, Map<String, String> headers, HttpClient http) {
        this.base = base;
        this.token = token;
        this.headers = headers;
        this.http = http;
    }

    public ApiClient as(String username) {
        return new ApiClient(base, () -> Tokens.of(username), headers, http);
    }

    public ApiClient withToken(String token) {
        return new ApiClient(base, () -> token, headers, http);
    }

    public ApiClient header(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new ApiClient(base, token, more, http);
    }

    /** Sending from {@code address}: any of 127.0.0.0/8 reaches the API on loopback, as a client address of its own. */
    public ApiClient from(InetAddress address) {
        return new ApiClient(base, token, headers, HttpClient.newBuilder().localAddress(address).build());
    }

    public Response get(String path) {
        return send("GET", path, null);
    }

    public Response post(String path, Object body) {
        return send("POST", path, body);
    }

    public Response patch(String path, Object body) {
        return send("PATCH", path, body);
    }

    public Response delete(String path) {
        return send("DELETE", path, null);
    }

    public Response send(String method, String path, Object body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        String bearer = token.get();
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        headers.forEach(request::header);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        String payload = body == null ? "" : body instanceof String s ? s : json.writeValueAsString(body);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(payload));
        try {
            HttpResponse<String> sent = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            Response response = new Response(sent.statusCode(), sent.headers().map(), sent.body());
            if (base.endsWith("/api/v1")) {
                ContractValidator.verify(method, URI.create(base + path).getPath(), response);
            }
            return response;
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls {@code path} until {@code done} holds or the timeout passes; returns the last body. */
    public JsonNode await(String path, Predicate<JsonNode> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            Response response = get(path);
            last = response.json();
            if (response.status() == 200 && done.test(last)) {
                return last;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("Timed out after " + timeout + " waiting on " + path + "; last answer: " + last);
    }

    public record Response(int status, Map<String, java.util.List<String>> headers, String body) {

        public JsonNode json() {
            return body == null || body.isBlank() ? json.nullNode() : json.readTree(body);
        }

        public Optional<String> header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).findFirst();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }
}

package dev.keel.controlplane.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

import dev.keel.controlplane.support.Tokens;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API through the load balancer, used as a careful client (the CLI, Terraform) would: every POST, PATCH and DELETE
 * carries an {@code Idempotency-Key}, and a request that got no answer (the connection broke or timed out), a 502, 503
 * or 504 (no replica could answer it), or a 409 saying its key's first request is still in progress is sent again,
 * with the same key, after a growing pause, for a bounded time. A request counts as a client-visible error when it
 * still failed after those retries, or was finally answered with a 5xx.
 */
final class LoadBalancedClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String KEY_IN_PROGRESS = "idempotency-request-in-progress";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String api;
    private final String username;
    private final Duration retryFor;
    private final Duration heldKeyRetryFor;
    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final Map<String, LongAdder> retried = new ConcurrentHashMap<>();
    private final Queue<String> errorSamples = new ConcurrentLinkedQueue<>();
    private volatile String longest = "none";
    private volatile Duration longestWait = Duration.ZERO;

    /**
     * Sends as {@code username} to {@code baseUrl}'s API; retries for {@code retryFor}, and for {@code heldKeyRetryFor}
     * while its key is held by a request whose replica died (until the control plane takes the key over).
     */
    LoadBalancedClient(String baseUrl, String username, Duration retryFor, Duration heldKeyRetryFor) {
        this.api = baseUrl + "/api/v1";
        this.username = username;
        this.retryFor = retryFor;
        this.heldKeyRetryFor = heldKeyRetryFor;
    }

    /** An answer the client accepted: any but the retried ones. */
    record Answer(int status, HttpResponse<String> response) {

        JsonNode json() {
            return JSON.readTree(response.body());
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        String problemType() {
            return response.body().contains("\"type\"") ? json().path("type").asString("") : "";
        }

        @Override
        public String toString() {
            return status + " " + response.body();
        }
    }

    /** A request that failed after every retry: a client-visible error, already counted. */
    static final class GaveUp extends RuntimeException {
        GaveUp(String message) {
            super(message);
        }
    }

    Answer get(String path) {
        return send("GET", path, null, Map.of());
    }

    /** A change under {@code key}, with {@code headers} (If-Match): sent again after a {@link GaveUp}, the same request. */
    Answer change(String method, String path, Object body, Map<String, String> headers, String key) {
        Map<String, String> keyed = new TreeMap<>(headers);
        keyed.put("Idempotency-Key", key);
        return send(method, path, body, keyed);
    }

    private Answer send(String method, String path, Object body, Map<String, String> headers) {
        requests.increment();
        long began = System.nanoTime();
        String payload = body == null ? null : JSON.writeValueAsString(body);
        for (int attempt = 1; ; attempt++) {
            String failure;
            boolean keyHeld = false;
            try {
                HttpResponse<String> response = http.send(request(method, path, payload, headers),
                        HttpResponse.BodyHandlers.ofString());
                Answer answer = new Answer(response.statusCode(), response);
                if (List.of(502, 503, 504).contains(answer.status())) {
                    failure = Integer.toString(answer.status());
                } else if (answer.status() == 409 && answer.problemType().endsWith(KEY_IN_PROGRESS)) {
                    failure = "409 key in progress";
                    keyHeld = true;
                } else if (answer.status() >= 500) {
                    throw gaveUp(method, path, answer.toString());
                } else {
                    answered(method, path, attempt, Duration.ofNanos(System.nanoTime() - began));
                    return answer;
                }
            } catch (IOException e) {
                failure = "no answer (" + e.getClass().getSimpleName() + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Duration spent = Duration.ofNanos(System.nanoTime() - began);
            if (spent.compareTo(keyHeld ? heldKeyRetryFor : retryFor) > 0) {
                throw gaveUp(method, path, failure + " after " + attempt + " attempts in " + spent.toSeconds() + " s");
            }
            retried.computeIfAbsent(failure, f -> new LongAdder()).increment();
            pause(Duration.ofMillis(Math.min(5_000, 250L << Math.min(attempt, 5))));
        }
    }

    /** Keeps the longest time a request took to be answered, retries included. */
    private synchronized void answered(String method, String path, int attempts, Duration took) {
        if (took.compareTo(longestWait) > 0) {
            longestWait = took;
            longest = String.format(Locale.ROOT, "%.1f s (%s %s, %d attempts)", took.toMillis() / 1000.0,
                    method, path, attempts);
        }
    }

    private GaveUp gaveUp(String method, String path, String why) {
        errors.increment();
        String error = method + " " + path + ": " + why;
        errorSamples.add(error.length() > 300 ? error.substring(0, 300) + "..." : error);
        return new GaveUp(error);
    }

    private HttpRequest request(String method, String path, String payload, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(45))
                .header("Authorization", "Bearer " + Tokens.of(username));
        headers.forEach(request::header);
        if (payload != null) {
            request.header("Content-Type", "application/json");
        }
        return request.method(method, payload == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(payload)).build();
    }

    long requests() {
        return requests.sum();
    }

    long errors() {
        return errors.sum();
    }

    /** Attempts sent again, by what the one before got. */
    Map<String, Long> retried() {
        Map<String, Long> counts = new TreeMap<>();
        retried.forEach((why, n) -> counts.put(why, n.sum()));
        return counts;
    }

    /** The request answered last after its first attempt, retries included, as "seconds (request, attempts)". */
    String longest() {
        return longest;
    }

    List<String> errorSamples() {
        return List.copyOf(errorSamples);
    }

    /** Sleeps, as a client between two looks or tries. */
    static void pause(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

package dev.keel.controlplane.bench;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Sends requests at a fixed rate whatever the server's latency (an open loop, as independent clients do), and
 * times each from when it was due, not from when it went out: a server that falls behind is charged the wait it
 * caused (no coordinated omission).
 */
final class OpenLoop {

    /** One request of the mix; {@code onBody} sees the body of an expected answer (to follow a cursor). */
    record Call(String route, HttpRequest request, int expectedStatus, Consumer<String> onBody) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** Runs {@code calls} at {@code rate} per second for {@code duration}; returns the latencies per route. */
    Results run(Supplier<Call> calls, int rate, Duration duration) throws InterruptedException {
        Results results = new Results();
        Phaser inFlight = new Phaser(1);
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        for (long due = start; due < end; due += interval) {
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            Call call = calls.get();
            long dueAt = due;
            inFlight.register();
            http.sendAsync(call.request(), HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
                try {
                    long nanos = System.nanoTime() - dueAt;
                    if (error == null && response.statusCode() == call.expectedStatus()) {
                        results.record(call.route(), nanos, null);
                        call.onBody().accept(response.body());
                    } else {
                        results.record(call.route(), nanos, error != null ? error.toString()
                                : response.statusCode() + " " + response.body().substring(0, Math.min(300, response.body().length())));
                    }
                } finally {
                    inFlight.arriveAndDeregister();
                }
            });
        }
        try {
            inFlight.awaitAdvanceInterruptibly(inFlight.arrive(), 30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            results.unanswered = inFlight.getUnarrivedParties();
        }
        return results;
    }

    /** Latencies per route, with the unexpected answers counted and the first of each kept. */
    static final class Results {

        private final Map<String, List<Long>> nanos = new ConcurrentHashMap<>();
        private final Map<String, Integer> errors = new ConcurrentHashMap<>();
        private final Map<String, String> firstError = new ConcurrentHashMap<>();
        /** Requests still without an answer 30 s after the last was sent (each has a 10 s timeout). */
        private volatile int unanswered;

        int unanswered() {
            return unanswered;
        }

        private void record(String route, long latency, String error) {
            List<Long> list = nanos.computeIfAbsent(route, r -> new ArrayList<>());
            synchronized (list) {
                list.add(latency);
            }
            if (error != null) {
                errors.merge(route, 1, Integer::sum);
                firstError.putIfAbsent(route, error);
            }
        }

        /** Per route (sorted by name): count, errors and percentiles in milliseconds. */
        Map<String, Summary> summaries() {
            Map<String, Summary> out = new TreeMap<>();
            nanos.forEach((route, list) -> {
                long[] sorted;
                synchronized (list) {
                    sorted = list.stream().mapToLong(Long::longValue).toArray();
                }
                Arrays.sort(sorted);
                out.put(route, new Summary(sorted.length, errors.getOrDefault(route, 0), firstError.get(route),
                        percentile(sorted, 50), percentile(sorted, 95), percentile(sorted, 99), sorted[sorted.length - 1] / 1e6));
            });
            return out;
        }

        /** Nearest rank. */
        private static double percentile(long[] sorted, double p) {
            int rank = (int) Math.ceil(p / 100 * sorted.length);
            return sorted[Math.max(0, rank - 1)] / 1e6;
        }
    }

    record Summary(int count, int errors, String firstError, double p50, double p95, double p99, double max) {
    }
}

package dev.keel.controlplane.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

import dev.keel.controlplane.support.OnboardedAccount;
import tools.jackson.databind.JsonNode;

/**
 * Client threads, each running instance lifecycles through the load balancer until the chaos ends: create (3 AKU),
 * scale up to 4 AKU (a broker more), scale back down to 3 (a broker drained and retired), delete with purge, each
 * change waited for by polling its operation every second, as {@code keel ... --wait} does. The kinds of instance take
 * turns: EBS in one zone, S3 in one and in three zones, FSWAL in three. The agents of every instance created are
 * played from its 202 on. An operation not finished by the settle deadline is stuck, and its instance is left as it is.
 */
final class Workload {

    private static final Duration POLL = Duration.ofSeconds(1);
    private static final int AKU = 3;

    /** A kind of instance: its WAL and how many zones it spans. */
    enum Kind {
        EBS_1_ZONE("EBS", 1), S3_1_ZONE("S3", 1), S3_3_ZONES("S3", 3), FSWAL_3_ZONES("FSWAL", 3);

        final String wal;
        final int zones;

        Kind(String wal, int zones) {
            this.wal = wal;
            this.zones = zones;
        }

        /** The file systems an instance of this kind has. */
        int fileSystems() {
            return wal.equals("FSWAL") ? 1 : 0;
        }

        @Override
        public String toString() {
            return wal + " " + zones + (zones == 1 ? " zone" : " zones");
        }
    }

    /** An instance the workload created (its 202 came back). */
    record Created(String instanceId, Kind kind) {
    }

    /** An operation the workload started and watched, with the longest time it recorded no change. */
    static final class Watched {
        final String id;
        final String type;
        final Kind kind;
        final Instant accepted = Instant.now();
        volatile String state = "RUNNING";
        volatile Duration longestStall = Duration.ZERO;
        volatile String stalledUntil = "";

        Watched(String id, String type, Kind kind) {
            this.id = id;
            this.type = type;
            this.kind = kind;
        }
    }

    private final LoadBalancedClient api;
    private final OnboardedAccount account;
    private final Consumer<String> log;
    private final Queue<Created> created = new ConcurrentLinkedQueue<>();
    private final Queue<Watched> operations = new ConcurrentLinkedQueue<>();
    private final Queue<String> unexpected = new ConcurrentLinkedQueue<>();
    private final Queue<String> conflicts = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile Instant settleBy = Instant.MAX;

    Workload(LoadBalancedClient api, OnboardedAccount account, Consumer<String> log) {
        this.api = api;
        this.account = account;
        this.log = log;
    }

    /** Starts {@code clients} threads that begin lifecycles until {@code until}, and finish the one they are in. */
    void start(int clients, Instant until) {
        for (int i = 0; i < clients; i++) {
            int first = i;
            // Daemons: a benchmark that fails ends with its clients.
            Thread thread = Thread.ofPlatform().name("client-" + i).daemon().start(() -> {
                for (int turn = first; Instant.now().isBefore(until); turn += clients) {
                    lifecycle(Kind.values()[turn % Kind.values().length]);
                }
            });
            threads.add(thread);
        }
    }

    /** From now on an operation unfinished at {@code deadline} is stuck. */
    void settleBy(Instant deadline) {
        settleBy = deadline;
    }

    void awaitFinished() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    List<Created> created() {
        return List.copyOf(created);
    }

    List<Watched> operations() {
        return List.copyOf(operations);
    }

    /** Answers no careful client expects (a refusal it did not cause, a missing resource). */
    List<String> unexpected() {
        return List.copyOf(unexpected);
    }

    /** Scales refused because another operation ran on the instance or its ETag moved, and asked again. */
    List<String> conflicts() {
        return List.copyOf(conflicts);
    }

    private void lifecycle(Kind kind) {
        Map<String, Object> body = account.instanceBody(kind.wal, kind.zones, AKU,
                kind.fileSystems() > 0 ? Map.of("throughputMBps", 384, "count", 1) : null);
        LoadBalancedClient.Answer accepted = surely("POST", "/instances", body, Map.of());
        if (accepted == null || !expected(accepted, 202, "create " + kind)) {
            return;
        }
        String instance = accepted.json().get("instanceId").asString();
        created.add(new Created(instance, kind));
        Watched create = await(accepted.json(), kind);
        if (create.state.equals("STUCK")) {
            return;
        }
        if (create.state.equals("SUCCEEDED")
                && (scale(instance, kind, AKU + 1).equals("STUCK") || scale(instance, kind, AKU).equals("STUCK"))) {
            return;
        }
        LoadBalancedClient.Answer deleting = surely("DELETE", "/instances/" + instance + "?purge=true", null, Map.of());
        if (deleting != null && expected(deleting, 202, "delete " + instance)) {
            await(deleting.json(), kind);
        }
    }

    /** Scales the instance to {@code aku} and waits; returns how the operation ended, or why none ran. */
    private String scale(String instance, Kind kind, int aku) {
        while (Instant.now().isBefore(settleBy)) {
            String etag;
            try {
                LoadBalancedClient.Answer current = api.get("/instances/" + instance);
                if (!expected(current, 200, "get " + instance)) {
                    return "REFUSED";
                }
                etag = current.header("ETag");
            } catch (LoadBalancedClient.GaveUp e) {
                LoadBalancedClient.pause(POLL);
                continue;
            }
            LoadBalancedClient.Answer scaled = surely("PATCH", "/instances/" + instance, Map.of("aku", aku),
                    Map.of("If-Match", etag));
            if (scaled == null) {
                return "STUCK";
            }
            if (scaled.status() == 409 || scaled.status() == 412) {
                conflicts.add("scale of " + instance + " to " + aku + ": " + scaled);
                LoadBalancedClient.pause(POLL.multipliedBy(2));
                continue;
            }
            return expected(scaled, 202, "scale " + instance) ? await(scaled.json(), kind).state : "REFUSED";
        }
        return "STUCK";
    }

    /**
     * Sends the change until it is answered, under one {@code Idempotency-Key}: a request that failed after the
     * client's retries is sent again, as a user re-runs a command with the key it printed. Null at the settle deadline.
     */
    private LoadBalancedClient.Answer surely(String method, String path, Object body, Map<String, String> headers) {
        String key = UUID.randomUUID().toString();
        while (Instant.now().isBefore(settleBy)) {
            try {
                return api.change(method, path, body, headers, key);
            } catch (LoadBalancedClient.GaveUp e) {
                log.accept("sending again after: " + e.getMessage());
                LoadBalancedClient.pause(POLL.multipliedBy(5));
            }
        }
        return null;
    }

    /** Polls the operation until it ends, or the settle deadline passes (then it is stuck), and times its stalls. */
    private Watched await(JsonNode operation, Kind kind) {
        Watched watched = new Watched(operation.get("id").asString(), operation.get("type").asString(), kind);
        operations.add(watched);
        JsonNode last = operation;
        while (true) {
            LoadBalancedClient.pause(POLL);
            try {
                LoadBalancedClient.Answer answer = api.get("/operations/" + watched.id);
                if (expected(answer, 200, "get operation " + watched.id)) {
                    last = answer.json();
                }
            } catch (LoadBalancedClient.GaveUp e) {
                continue;
            }
            String state = last.get("state").asString();
            if (List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(state)) {
                watched.state = state;
                if (!state.equals("SUCCEEDED")) {
                    log.accept(watched.type + " " + watched.id + " of " + kind + " ended " + state + ": "
                            + last.path("error"));
                }
                stalls(watched, last, null);
                return watched;
            }
            if (Instant.now().isAfter(settleBy)) {
                watched.state = "STUCK";
                log.accept(watched.type + " " + watched.id + " of " + kind + " is stuck: " + last);
                stalls(watched, last, Instant.now());
                return watched;
            }
        }
    }

    /**
     * The longest time between two changes the operation records (its creation, its start, each step's start and end,
     * its end; or {@code now}, when it has not ended), with the change that ended it.
     */
    private static void stalls(Watched watched, JsonNode operation, Instant now) {
        TreeMap<Instant, String> changes = new TreeMap<>();
        changes.put(Instant.parse(operation.get("createdAt").asString()), "created");
        for (JsonNode step : operation.get("steps")) {
            change(changes, step.path("startedAt"), step.get("name").asString() + " started");
            change(changes, step.path("finishedAt"), step.get("name").asString() + " ended");
        }
        change(changes, operation.path("finishedAt"), "operation ended");
        if (now != null) {
            changes.put(now, "still unfinished");
        }
        Instant previous = null;
        for (Map.Entry<Instant, String> change : changes.entrySet()) {
            if (previous != null && Duration.between(previous, change.getKey()).compareTo(watched.longestStall) > 0) {
                watched.longestStall = Duration.between(previous, change.getKey());
                watched.stalledUntil = change.getValue() + " at " + change.getKey();
            }
            previous = change.getKey();
        }
    }

    private static void change(Map<Instant, String> changes, JsonNode at, String what) {
        if (at.isString()) {
            changes.putIfAbsent(Instant.parse(at.asString()), what);
        }
    }

    private boolean expected(LoadBalancedClient.Answer answer, int status, String what) {
        if (answer.status() == status) {
            return true;
        }
        unexpected.add(what + ": " + answer);
        log.accept("unexpected answer to " + what + ": " + answer);
        return false;
    }
}

package dev.keel.controlplane.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.CustomerAccount;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.OnboardedAccount;
import dev.keel.controlplane.support.PlayedAgents;

/**
 * Three replicas behind a load balancer, one database, and faults, run by {@code backend/bench/chaos}: the packaged
 * backend three times with the AWS driver (LocalStack and the FSx emulator), behind the HAProxy the script started,
 * while client threads create, scale and delete instances of every WAL type through the load balancer and, every
 * 30 to 90 s, a replica is killed with {@code kill -9} (and started again) and another frozen with {@code SIGSTOP} for
 * longer than its executions' lease. Prints operations succeeded, failed and stuck, duplicates seen in the account at
 * any moment, what is left in it after the deletes, the client-visible error rate and the longest stall of an
 * operation, as {@code chaos <figure>: <value>} lines, and exits 1 when a target is missed.
 */
public final class ChaosBenchmark {

    private static final Instant STARTED = Instant.now();
    /** The heartbeats db-scheduler lets a replica miss before it revives its executions elsewhere (application.yaml). */
    private static final int MISSED_HEARTBEATS = 4;
    private static final double ERROR_RATE_TARGET = 0.005;
    private static final int OPERATIONS_PER_MINUTE = 6;

    private ChaosBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = ApiLoadBenchmark.options(args);
        String loadBalancer = required(options, "load-balancer");
        List<int[]> ports = ports(required(options, "api-ports"), required(options, "management-ports"));
        double minutes = Double.parseDouble(options.getOrDefault("minutes", "10"));
        int clients = Integer.parseInt(options.getOrDefault("clients", "4"));
        Duration heartbeat = Duration.ofMillis((long) (1000 * Double.parseDouble(options.getOrDefault("heartbeat", "1"))));
        Duration lease = heartbeat.multipliedBy(MISSED_HEARTBEATS);
        Duration frozenFor = Duration.ofSeconds(Long.parseLong(options.getOrDefault("frozen", "12")));
        String[] round = options.getOrDefault("round", "30-90").split("-");
        Duration settle = Duration.ofSeconds((long) (60 * Double.parseDouble(options.getOrDefault("settle", "5"))));
        long seed = Long.parseLong(options.getOrDefault("seed", Long.toString(System.nanoTime() % 100_000)));
        String workerThreads = options.getOrDefault("worker-threads", "4");
        Duration keyStaleAfter = Duration.ofMinutes(5);
        boolean keepDatabase = Boolean.parseBoolean(options.getOrDefault("keep-database", "false"));
        if (frozenFor.compareTo(lease) <= 0) {
            throw new IllegalArgumentException("--frozen " + frozenFor.toSeconds() + " s is not longer than the lease, "
                    + lease.toMillis() + " ms (" + MISSED_HEARTBEATS + " heartbeats of " + heartbeat.toMillis() + " ms)");
        }

        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        String database = environment.get("KEEL_DB_URL");
        String ingestSecret = "chaos-bench-ingest-secret-" + seed + "-0123456789abcdef";
        environment.put("KEEL_HEARTBEAT_INTERVAL", heartbeat.toMillis() + "ms");
        environment.put("KEEL_WORKER_THREADS", workerThreads);
        environment.put("KEEL_INGEST_SECRET", ingestSecret);
        environment.put("KEEL_INGEST_URL", loadBalancer + "/ingest");
        environment.put("KEEL_IDEMPOTENCY_STALE_AFTER", keyStaleAfter.toSeconds() + "s");
        environment.put("KEEL_DB_MIGRATE_ON_START", "false");

        System.out.printf(Locale.ROOT, "chaos settings: %d replicas behind HAProxy at %s, one database; heartbeat %d ms, "
                        + "lease %d ms (%d missed heartbeats); a kill -9 every %s-%s s (random, seed %d), another replica "
                        + "frozen %d s in each round; %d client threads, %s worker threads per replica; %s min of chaos, "
                        + "then %d s to settle; AWS waits x %s; an Idempotency-Key held by a frozen replica taken over "
                        + "after %d s%n",
                ports.size(), loadBalancer, heartbeat.toMillis(), lease.toMillis(), MISSED_HEARTBEATS, round[0],
                round[1], seed, frozenFor.toSeconds(), clients, workerThreads, minutes, settle.toSeconds(),
                environment.get("KEEL_AWS_WAIT_SCALE"), keyStaleAfter.toSeconds());

        boolean met;
        try {
            BackendProcess.Exit migrated = BackendProcess.command("chaos-migrate", List.of("migrate"), environment,
                    Duration.ofMinutes(3));
            if (migrated.code() != 0) {
                throw new IllegalStateException("migrate failed:\n" + migrated.output());
            }
            say("starting %d replicas", ports.size());
            try (Replicas replicas = new Replicas(environment, ports)) {
                awaitServing(loadBalancer);
                OnboardedAccount account = new OnboardedAccount(new ApiClient(loadBalancer + "/api/v1", null)
                        .as(ApiTest.ADMIN));
                // The agents play every instance the database records, for as long as the run lasts.
                try (PlayedAgents agents = new PlayedAgents(loadBalancer, database, ingestSecret)) {
                    met = run(replicas, account, loadBalancer, database, new Random(seed), minutes, clients,
                            frozenFor, round, settle, keyStaleAfter);
                }
            }
        } finally {
            if (keepDatabase) {
                say("kept the database: %s", database);
            } else {
                Database.drop(database);
            }
        }
        System.exit(met ? 0 : 1);
    }

    private static boolean run(Replicas replicas, OnboardedAccount account, String loadBalancer,
                               String database, Random random, double minutes, int clients, Duration frozenFor,
                               String[] round, Duration settle, Duration keyStaleAfter) throws Exception {
        LoadBalancedClient api = new LoadBalancedClient(loadBalancer, ApiTest.ADMIN, Duration.ofMinutes(2),
                keyStaleAfter.plusMinutes(1));
        Workload workload = new Workload(api, account, ChaosBenchmark::say);
        Faults faults = new Faults(replicas, random, Duration.ofSeconds(Long.parseLong(round[0])),
                Duration.ofSeconds(Long.parseLong(round[1])), frozenFor, ChaosBenchmark::say);
        Instant chaosEnds = Instant.now().plusMillis((long) (minutes * 60_000));
        Instant settled;
        try (DuplicateWatch watch = new DuplicateWatch(account.customer, instance -> kindOf(workload, instance),
                Duration.ofSeconds(3))) {
            say("replicas ready; %s min of chaos begin", minutes);
            workload.start(clients, chaosEnds);
            faults.run(chaosEnds);
            settled = Instant.now().plus(settle);
            say("chaos over, every replica up; operations unfinished at %s are stuck", settled);
            workload.settleBy(settled);
            workload.awaitFinished();
            say("every lifecycle ended; counting what is left");
            return report(workload, watch, faults, api, account.customer, database, minutes);
        }
    }

    private static java.util.Optional<Workload.Kind> kindOf(Workload workload, String instance) {
        return workload.created().stream().filter(c -> c.instanceId().equals(instance)).findFirst()
                .map(Workload.Created::kind);
    }

    private static boolean report(Workload workload, DuplicateWatch watch, Faults faults, LoadBalancedClient api,
                                  CustomerAccount customer, String database, double minutes) {
        JdbcClient jdbc = JdbcClient.create(Database.dataSource(database));
        List<Workload.Watched> operations = workload.operations();
        Map<String, Long> outcomes = operations.stream()
                .collect(Collectors.groupingBy(op -> op.state, TreeMap::new, Collectors.counting()));
        long succeeded = outcomes.getOrDefault("SUCCEEDED", 0L);
        long stuck = outcomes.getOrDefault("STUCK", 0L);
        long failed = operations.size() - succeeded - stuck;

        List<String> leftovers = new ArrayList<>();
        for (Workload.Created created : workload.created()) {
            customer.leftovers(created.instanceId()).forEach(found -> leftovers.add(created.instanceId() + ": " + found));
        }
        int endpoints = customer.census().keelS3Endpoints();
        if (endpoints > 0) {
            leftovers.add(endpoints + " S3 gateway endpoints of Keel's in the VPC");
        }
        List<String> undeleted = jdbc.sql("SELECT id || ' ' || state FROM instances WHERE state <> 'DELETED'")
                .query(String.class).list();
        List<String> twice = jdbc.sql("SELECT name FROM instances GROUP BY name HAVING count(*) > 1")
                .query(String.class).list();
        Map<String, Long> recorded = jdbc.sql("SELECT type || ' ' || state, count(*) FROM operations GROUP BY 1")
                .query((rs, n) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, Long::sum, TreeMap::new));
        long unfinished = jdbc.sql("SELECT count(*) FROM operations WHERE state IN ('PENDING', 'RUNNING')")
                .query(Long.class).single();
        long repeated = jdbc.sql("SELECT count(*) FROM operation_steps WHERE attempts > 1").query(Long.class).single();

        double errorRate = api.requests() == 0 ? 0 : (double) api.errors() / api.requests();
        Workload.Watched longest = operations.stream().max(Comparator.comparing(op -> op.longestStall)).orElse(null);
        long duplicates = watch.duplicates().size() + twice.size();

        say("operations by type and kind: %s", operations.stream().collect(Collectors.groupingBy(
                op -> op.type + " " + op.kind, TreeMap::new, Collectors.counting())));
        say("operations in the database: %s", recorded);
        watch.duplicates().forEach((what, when) -> say("duplicate: %s (%s)", what, when));
        twice.forEach(name -> say("duplicate: instance %s created twice", name));
        leftovers.forEach(found -> say("leftover: %s", found));
        undeleted.forEach(instance -> say("not deleted: instance %s", instance));
        api.errorSamples().forEach(error -> say("client-visible error: %s", error));
        workload.unexpected().forEach(answer -> say("unexpected answer: %s", answer));
        workload.conflicts().forEach(conflict -> say("asked again after: %s", conflict));

        System.out.printf(Locale.ROOT, "chaos faults: %d kill -9, %d SIGSTOP; longest restart %d s; replicas that "
                        + "ended by themselves: %s%n", faults.kills(), faults.freezes(),
                faults.longestRestart().toSeconds(), faults.endedByThemselves());
        System.out.printf(Locale.ROOT, "chaos operations: %d (%d instances created)%n", operations.size(),
                workload.created().size());
        System.out.printf(Locale.ROOT, "chaos operations succeeded: %d%n", succeeded);
        System.out.printf(Locale.ROOT, "chaos operations failed: %d%n", failed);
        System.out.printf(Locale.ROOT, "chaos operations stuck: %d (unfinished in the database: %d)%n", stuck, unfinished);
        System.out.printf(Locale.ROOT, "chaos steps run again: %d%n", repeated);
        System.out.printf(Locale.ROOT, "chaos duplicates: %d (EC2 per node %d, volumes %d, file systems %d, buckets %d, "
                        + "S3 gateway endpoints %d, instances %d; %d samples of the account, %d failed)%n",
                duplicates, watch.count("EC2 per node"), watch.count("volumes"), watch.count("file systems"),
                watch.count("buckets"), watch.count("S3 gateway endpoints"), twice.size(), watch.samples(),
                watch.failedSamples());
        System.out.printf(Locale.ROOT, "chaos leftovers: %d (instances not deleted: %d)%n", leftovers.size(),
                undeleted.size());
        System.out.printf(Locale.ROOT, "chaos client requests: %d, errors %d, error rate %.3f %%; retried %s%n",
                api.requests(), api.errors(), 100 * errorRate, api.retried());
        System.out.printf(Locale.ROOT, "chaos longest client request: %s%n", api.longest());
        System.out.printf(Locale.ROOT, "chaos unexpected answers: %d%n", workload.unexpected().size());
        operations.stream().sorted(Comparator.comparing((Workload.Watched op) -> op.longestStall).reversed()).limit(5)
                .forEach(op -> say("stall: %.1f s, %s of %s %s, until %s", op.longestStall.toMillis() / 1000.0,
                        op.type, op.kind, op.id, op.stalledUntil));
        if (longest != null) {
            System.out.printf(Locale.ROOT, "chaos longest stall: %.1f s (%s of %s, until %s)%n",
                    longest.longestStall.toMillis() / 1000.0, longest.type, longest.kind, longest.stalledUntil);
        }
        boolean enough = operations.size() >= OPERATIONS_PER_MINUTE * minutes;
        boolean met = enough && failed == 0 && stuck == 0 && unfinished == 0 && duplicates == 0 && leftovers.isEmpty()
                && undeleted.isEmpty() && errorRate < ERROR_RATE_TARGET && workload.unexpected().isEmpty();
        System.out.printf(Locale.ROOT, "chaos targets: %s%s%n", met ? "met" : "MISSED",
                enough ? "" : " (fewer than " + OPERATIONS_PER_MINUTE + " operations a minute)");
        return met;
    }

    /** Until the load balancer has a replica answering readiness. */
    private static void awaitServing(String loadBalancer) throws InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        Instant deadline = Instant.now().plusSeconds(60);
        while (Instant.now().isBefore(deadline)) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(loadBalancer + "/readyz")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                // HAProxy has not found a replica up yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("No replica answers through " + loadBalancer);
    }

    private static List<int[]> ports(String api, String management) {
        Function<String, int[]> parse = list -> Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
        int[] apiPorts = parse.apply(api);
        int[] managementPorts = parse.apply(management);
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < apiPorts.length; i++) {
            pairs.add(new int[]{apiPorts[i], managementPorts[i]});
        }
        return pairs;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }

    private static void say(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[chaos +%ds] " + format + "%n",
                append(Duration.between(STARTED, Instant.now()).toSeconds(), args));
    }

    private static void say(String message) {
        say("%s", message);
    }

    private static Object[] append(long seconds, Object[] args) {
        Object[] all = new Object[args.length + 1];
        all[0] = seconds;
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}

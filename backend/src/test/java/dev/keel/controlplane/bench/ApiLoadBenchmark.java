package dev.keel.controlplane.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.fixtures.NoCloudProvisioningDriver;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API under a realistic load, run by {@code backend/bench/api-load}: a database seeded with thousands of
 * instances across many organizations, the packaged backend started on it with the no-cloud driver (so only the
 * control plane's own work is measured), and a fixed rate of reads and writes from the seeded organizations' users.
 * Prints p50/p95/p99 per route and each p99 against the p99 of readiness, the cheapest request the same server
 * answers in the same run, so the figures can be compared across machines and background load.
 */
public final class ApiLoadBenchmark {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final String READINESS = "GET readiness";
    /** Routes that change nothing; the target applies to them. */
    private static final double READ_TARGET_P99_MS = 25;
    /** The machine's CPUs, as {@code taskset} lists them. */
    /** Prometheus' default scrape interval. */
    private static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(15);
    private static final String ONLINE_CPUS = "/sys/devices/system/cpu/online";

    private ApiLoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int organizations = Integer.parseInt(options.getOrDefault("organizations", "1000"));
        int instances = Integer.parseInt(options.getOrDefault("instances", "10000"));
        int rate = Integer.parseInt(options.getOrDefault("rate", "300"));
        Duration duration = Duration.ofSeconds(Long.parseLong(options.getOrDefault("duration", "60")));
        Duration warmUp = Duration.ofSeconds(Long.parseLong(options.getOrDefault("warm-up", "20")));
        int perUser = Integer.parseInt(options.getOrDefault("organizations-per-user", "25"));
        String readinessUrl = options.getOrDefault("readiness-url", "http://localhost:{port}/readyz");
        boolean keepDatabase = Boolean.parseBoolean(options.getOrDefault("keep-database", "false"));
        String backendCpus = options.getOrDefault("backend-cpus", Files.readString(Path.of(ONLINE_CPUS)).trim());

        boolean unexpectedAnswers;
        String database = Database.fresh();
        try {
            long seeding = System.nanoTime();
            List<SeedData.Org> orgs = SeedData.into(Database.dataSource(database), organizations, instances, 42);
            say("seeded %,d instances in %,d organizations in %.1f s", instances, organizations, (System.nanoTime() - seeding) / 1e9);
            try (BackendProcess backend = BackendProcess.start("api-load", Map.of(
                         "KEEL_DB_URL", database,
                         "KEEL_ISSUER_URI", TestEnvironment.keycloakUrl() + "/realms/byoc",
                         "KEEL_PROVISIONING_DRIVER", "no-cloud",
                         // The agents of the machines the run's creates and scale-ups launch report once, which
                         // ends their operations as a real broker's first report does, and then not again during
                         // the run: agents reporting are the ingest API's load, not this mix's.
                         "KEEL_PROVISIONING_NO_CLOUD_AGENT_INTERVAL", "1h"), Duration.ofMinutes(5), backendCpus);
                 BenchUsers users = BenchUsers.covering(orgs.stream().map(SeedData.Org::slug).toList(), perUser)) {
                say("%d Keycloak users, each an editor of %d organizations (tokens of up to %,d bytes); backend on port %d",
                        users.count(), perUser, users.largestTokenBytes(), backend.port());
                say("load generator (pid %d) on CPUs %s, backend (pid %d) on CPUs %s", ProcessHandle.current().pid(),
                        ownCpus(), backend.pid(), backendCpus);
                Mix mix = new Mix("http://localhost:" + backend.port(), readinessUrl.replace("{port}", String.valueOf(backend.port())),
                        orgs, users);
                OpenLoop loop = new OpenLoop();
                // Scraped every 15 s from the start, as Prometheus scrapes a replica: its cost is in the figures as in
                // production, and the code it runs is compiled in the warm-up, not in the measured minute.
                ScheduledExecutorService prometheus = Executors.newSingleThreadScheduledExecutor();
                prometheus.scheduleAtFixedRate(backend::scrape, 0, SCRAPE_INTERVAL.toSeconds(), TimeUnit.SECONDS);
                say("warming up: %d requests/s for %d s (not counted)", rate, warmUp.toSeconds());
                loop.run(mix, rate, warmUp);
                say("measuring: %d requests/s for %d s", rate, duration.toSeconds());
                String loadBefore = loadAverage();
                Duration cpuBefore = backend.cpuTime();
                CpuByThread threadsBefore = CpuByThread.of(backend.pid());
                double ingestBefore = ingestRequests(backend);
                OpenLoop.Results results = loop.run(mix, rate, duration);
                Duration cpu = backend.cpuTime().minus(cpuBefore);
                Map<String, Double> byThread = CpuByThread.of(backend.pid()).since(threadsBefore, backend.port());
                double ingest = ingestRequests(backend) - ingestBefore;
                prometheus.shutdownNow();
                print(results.summaries(), rate, duration, organizations, instances, loadBefore);
                long requests = rate * duration.toSeconds();
                System.out.printf(Locale.ROOT, "backend CPU: %.1f s over the run, %.2f ms per request (background work included)%n",
                        cpu.toMillis() / 1000.0, (double) cpu.toMillis() / requests);
                System.out.printf(Locale.ROOT, "  by thread, in ms per request: %s; ingest requests from broker agents: %.0f%n",
                        String.join(", ", byThread.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.2f",
                                e.getKey(), e.getValue() * 1000 / requests)).toList()), ingest);
                if (results.unanswered() > 0) {
                    say("%d requests still unanswered 30 s after the last was sent", results.unanswered());
                }
                unexpectedAnswers = results.unanswered() > 0
                        || results.summaries().values().stream().anyMatch(s -> s.errors() > 0);
            }
        } finally {
            if (keepDatabase) {
                say("kept the database: %s", database);
            } else {
                Database.drop(database);
            }
        }
        System.exit(unexpectedAnswers ? 1 : 0);
    }

    /**
     * The request mix: mostly reads (an instance, the first page of a list with and without filters, the next page
     * through a cursor), pricing and planning specs, and a few creates and capacity changes.
     */
    static final class Mix implements Supplier<OpenLoop.Call> {

        private final String api;
        private final String readiness;
        private final List<SeedData.Org> orgs;
        private final BenchUsers users;
        private final List<Map.Entry<Integer, Supplier<OpenLoop.Call>>> weighted = new ArrayList<>();
        private final int totalWeight;
        /** The next page's cursor per organization, from first pages already answered. */
        private final Map<String, String> cursors = new ConcurrentHashMap<>();
        /** Running S3 instances no request has changed: each capacity change takes one. */
        private final Queue<Target> unchanged = new ConcurrentLinkedQueue<>();
        /** Running instances that stay as seeded: reads and plans go to them. */
        private final List<Target> running = new ArrayList<>();
        private final AtomicLong created = new AtomicLong();

        record Target(SeedData.Org org, SeedData.Seeded instance) {
        }

        Mix(String base, String readiness, List<SeedData.Org> orgs, BenchUsers users) {
            this.api = base + "/api/v1";
            this.readiness = readiness;
            this.orgs = orgs;
            this.users = users;
            for (SeedData.Org org : orgs) {
                for (SeedData.Seeded instance : org.instances()) {
                    if (instance.state().equals("RUNNING")) {
                        boolean changeable = instance.wal().equals("S3") && unchanged.size() <= running.size();
                        (changeable ? unchanged : running).add(new Target(org, instance));
                    }
                }
            }
            weigh(34, this::getInstance);
            weigh(12, () -> list("GET /instances", ""));
            weigh(8, () -> list("GET /instances?state=", "state=" + (ThreadLocalRandom.current().nextInt(5) == 0 ? "DELETED" : "RUNNING")));
            weigh(6, () -> list("GET /instances?name=", "name=" + SeedData.WORDS[ThreadLocalRandom.current().nextInt(SeedData.WORDS.length)]));
            weigh(8, this::nextPage);
            weigh(10, this::estimate);
            weigh(8, this::planCreate);
            weigh(4, this::planUpdate);
            weigh(2, this::create);
            weigh(2, this::update);
            weigh(6, () -> new OpenLoop.Call(READINESS, HttpRequest.newBuilder(URI.create(readiness)).build(), 200, body -> { }));
            this.totalWeight = weighted.stream().mapToInt(Map.Entry::getKey).sum();
        }

        private void weigh(int weight, Supplier<OpenLoop.Call> call) {
            weighted.add(Map.entry(weight, call));
        }

        @Override
        public OpenLoop.Call get() {
            int pick = ThreadLocalRandom.current().nextInt(totalWeight);
            for (Map.Entry<Integer, Supplier<OpenLoop.Call>> entry : weighted) {
                pick -= entry.getKey();
                if (pick < 0) {
                    return entry.getValue().get();
                }
            }
            throw new IllegalStateException("weights");
        }

        private OpenLoop.Call getInstance() {
            Target target = anyRunning();
            return call("GET /instances/{id}", target.org(), "GET", "/instances/" + target.instance().id(), null, 200);
        }

        /** A first page of five; its cursor is kept for a later next-page request of the same organization. */
        private OpenLoop.Call list(String route, String query) {
            SeedData.Org org = anyOrg();
            OpenLoop.Call call = call(route, org, "GET", "/instances?limit=5" + (query.isEmpty() ? "" : "&" + query), null, 200);
            return new OpenLoop.Call(call.route(), call.request(), 200, body -> {
                JsonNode next = JSON.readTree(body).get("nextCursor");
                if (next != null && !next.isNull()) {
                    cursors.put(org.slug(), next.asString());
                }
            });
        }

        private OpenLoop.Call nextPage() {
            for (int attempt = 0; attempt < 10; attempt++) {
                SeedData.Org org = anyOrg();
                String cursor = cursors.remove(org.slug());
                if (cursor != null) {
                    return call("GET /instances?cursor=", org, "GET",
                            "/instances?limit=5&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8), null, 200);
                }
            }
            return list("GET /instances", "");
        }

        private OpenLoop.Call estimate() {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            int aku = 3 * (1 + random.nextInt(20));
            Map<String, Object> body = Map.of("region", "us-east-1", "zones", 3, "wal", Map.of("type", "S3"), "aku", aku,
                    "workload", Map.of("writeMiBps", aku * 10, "readMiBps", aku * 15, "retentionHours", 72));
            return call("POST /estimates", anyOrg(), "POST", "/estimates", body, 200);
        }

        private OpenLoop.Call planCreate() {
            SeedData.Org org = anyOrg();
            return call("POST /instances/plan", org, "POST", "/instances/plan", creation(org, "plan"), 200);
        }

        private OpenLoop.Call planUpdate() {
            Target target = anyRunning();
            // Without a body, the plan is a repair's: what differs from the spec now.
            Map<String, Object> body = target.instance().wal().equals("S3") ? Map.of("aku", target.instance().aku() + 3) : null;
            return call("POST /instances/{id}/plan", target.org(), "POST", "/instances/" + target.instance().id() + "/plan",
                    body, 200);
        }

        private OpenLoop.Call create() {
            SeedData.Org org = anyOrg();
            return call("POST /instances", org, "POST", "/instances", creation(org, "load"), 202);
        }

        private OpenLoop.Call update() {
            Target target = unchanged.poll();
            if (target == null) {
                return getInstance();
            }
            HttpRequest request = request(target.org(), "PATCH", "/instances/" + target.instance().id(),
                    Map.of("aku", target.instance().aku() + 3))
                    .header("If-Match", "\"1\"").header("Content-Type", "application/merge-patch+json").build();
            return new OpenLoop.Call("PATCH /instances/{id}", request, 202, body -> { });
        }

        private Map<String, Object> creation(SeedData.Org org, String prefix) {
            List<Map<String, String>> subnets = new ArrayList<>();
            for (int z = 0; z < 3; z++) {
                subnets.add(Map.of("availabilityZone", "us-east-1" + (char) ('a' + z), "subnetId", NoCloudProvisioningDriver.subnet(z)));
            }
            Map<String, Object> body = new HashMap<>();
            body.put("name", prefix + "-" + created.incrementAndGet());
            body.put("cloudAccountId", org.accountId().toString());
            body.put("region", "us-east-1");
            body.put("network", Map.of("vpcId", NoCloudProvisioningDriver.VPC, "subnets", subnets));
            body.put("wal", Map.of("type", "S3"));
            body.put("aku", 3 * (1 + ThreadLocalRandom.current().nextInt(4)));
            return body;
        }

        private OpenLoop.Call call(String route, SeedData.Org org, String method, String path, Object body, int expected) {
            return new OpenLoop.Call(route, request(org, method, path, body).build(), expected, response -> { });
        }

        private HttpRequest.Builder request(SeedData.Org org, String method, String path, Object body) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + users.tokenFor(org.slug()))
                    .header("X-Organization", org.slug());
            if (body == null) {
                return request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            return request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        }

        private SeedData.Org anyOrg() {
            return orgs.get(ThreadLocalRandom.current().nextInt(orgs.size()));
        }

        private Target anyRunning() {
            return running.get(ThreadLocalRandom.current().nextInt(running.size()));
        }
    }

    private static void print(Map<String, OpenLoop.Summary> summaries, int rate, Duration duration, int organizations,
                              int instances, String loadBefore) throws IOException {
        double readinessP99 = summaries.get(READINESS).p99();
        System.out.printf(Locale.ROOT, "%nAPI load: %d requests/s for %d s, %,d instances in %,d organizations, no-cloud driver%n",
                rate, duration.toSeconds(), instances, organizations);
        System.out.printf(Locale.ROOT, "machine: CPUs %s (%s), load average %s when the measured run began, %s when it ended%n%n",
                Files.readString(Path.of(ONLINE_CPUS)).trim(), cpuModel(), loadBefore, loadAverage());
        System.out.printf(Locale.ROOT, "%-28s %7s %6s %8s %8s %8s %8s  %s%n", "route", "count", "errors", "p50 ms", "p95 ms",
                "p99 ms", "max ms", "p99 / readiness p99");
        double worstRead = 0;
        String worstRoute = null;
        for (var entry : summaries.entrySet()) {
            OpenLoop.Summary s = entry.getValue();
            System.out.printf(Locale.ROOT, "%-28s %7d %6d %8.1f %8.1f %8.1f %8.1f  %.1f%n", entry.getKey(), s.count(), s.errors(),
                    s.p50(), s.p95(), s.p99(), s.max(), s.p99() / readinessP99);
            if (isRead(entry.getKey()) && s.p99() > worstRead) {
                worstRead = s.p99();
                worstRoute = entry.getKey();
            }
        }
        System.out.printf(Locale.ROOT, "%nreads: p99 at most %.1f ms (%s); target %.0f ms: %s%n", worstRead, worstRoute,
                READ_TARGET_P99_MS, worstRead <= READ_TARGET_P99_MS ? "met" : "missed");
        summaries.forEach((route, s) -> {
            if (s.firstError() != null) {
                System.out.printf("first unexpected answer to %s: %s%n", route, s.firstError());
            }
        });
    }

    /** Reads: every GET; pricing and planning are POSTs that change nothing but do more work, shown apart. */
    private static boolean isRead(String route) {
        return route.startsWith("GET ") && !route.equals(READINESS);
    }

    private static String loadAverage() throws IOException {
        String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return parts[0] + " / " + parts[1] + " / " + parts[2];
    }

    /** The CPUs this process may run on: those the script pinned it to. */
    private static String ownCpus() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
    }

    /** Requests the backend's ingest API has answered (every outcome): what broker agents sent it. */
    private static double ingestRequests(BackendProcess backend) {
        String scrape = backend.scrape();
        return List.of("accepted", "unauthorized", "invalid", "error").stream()
                .mapToDouble(outcome -> BackendProcess.sample(scrape, "keel_ingest_reports_total", "outcome=\"" + outcome + "\""))
                .sum();
    }

    private static String cpuModel() throws IOException {
        return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown CPU");
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                throw new IllegalArgumentException("options are --name value: " + String.join(" ", args));
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    private static void say(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[api-load] " + format + "%n", args);
    }
}

package dev.keel.broker.localrunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;
import software.amazon.awssdk.services.ec2.Ec2Client;

/**
 * The product end to end on one machine: the packaged backend (AWS driver against LocalStack and the FSx emulator)
 * provisions a 3-zone S3-WAL instance into an account onboarded with the served CloudFormation template; the local
 * runner plays EC2 and runs a stand-in broker per instance; Kafka clients then connect through the bootstrap
 * endpoint the API shows, over TLS verified against the CA the API serves, with SCRAM users the API manages: access is
 * only what the API's users and ACLs allow (see {@link #accessIsEnforced}). The instance is scaled (brokers join, records stay readable), the load tool's
 * traffic shows up in the instance's metrics as what it sent, a broker whose machine dies is reported and replaced,
 * and deleting the instance stops every broker process.
 *
 * <p>Needs what {@code ./dev test} exports: KEEL_AWS_ENDPOINT, KEEL_FSX_ENDPOINT, KEEL_DB_URL, KEEL_ISSUER_URI,
 * KEEL_KEYCLOAK_URL (and KEEL_DB_USERNAME/PASSWORD, default keel), and {@code backend/target/keel-backend.jar}.
 */
class BrokersEndToEndIT {
    static final List<String> REQUIRED = List.of("KEEL_AWS_ENDPOINT", "KEEL_FSX_ENDPOINT", "KEEL_DB_URL",
            "KEEL_ISSUER_URI", "KEEL_KEYCLOAK_URL");
    static final Path BACKEND_JAR = Path.of("..", "..", "backend", "target", "keel-backend.jar");
    static final String REGION = "us-east-1";
    static final Duration OPERATION_TIMEOUT = Duration.ofMinutes(2);
    /** Three drift checks, and longer than the 20 s after which a silent agent's broker is unwell. */
    static final Duration SILENCE_IS_NO_EVIDENCE = Duration.ofSeconds(25);
    static final int RECORDS = 10_000;
    static final String TOPIC = "orders";
    /** Created once the instance has 6 brokers, one replica per partition: scale-down must move it to keep it. */
    static final String SPREAD = "spread";

    final ObjectMapper json = new ObjectMapper();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final String suffix = UUID.randomUUID().toString().substring(0, 8);

    /** The runner's state (agents' and brokers' logs), kept under target/ for a failure's post-mortem. */
    Path state;
    Process backend;
    String api;
    LocalRunner runner;
    Ec2Client ec2;
    String token;
    long tokenAt;
    /** The instance's default admin user, from the create's answer. */
    KafkaLogin admin;
    /** The instance's CA certificate as the API serves it: what every client here trusts. */
    Path caFile;
    /** The instance this test created: the runner runs only its brokers, and the clean-up terminates them. */
    final Set<String> ours = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void start() throws Exception {
        List<String> missing = REQUIRED.stream().filter(v -> System.getenv(v) == null || System.getenv(v).isBlank())
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("BrokersEndToEndIT needs " + missing + " (LocalStack, the FSx emulator, "
                    + "PostgreSQL and Keycloak): run it through ./dev test, or export .local/dev/env's variables");
        }
        if (!Files.isRegularFile(BACKEND_JAR)) {
            throw new IllegalStateException(BACKEND_JAR.toAbsolutePath().normalize() + " is missing: package the "
                    + "backend first (the reactor does, before this module)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        api = "http://localhost:" + port;
        Path log = Path.of("target", "it-logs", "e2e-backend-" + suffix + ".log");
        Files.createDirectories(log.getParent());
        // Run a copy, so a rebuild of the jar in backend/target cannot pull classes from under the running JVM.
        Path jar = Files.copy(BACKEND_JAR, log.resolveSibling("keel-backend-e2e.jar"), StandardCopyOption.REPLACE_EXISTING);
        ProcessBuilder pb = new ProcessBuilder(Main.javaBin(), "-Xmx384m", "-jar", jar.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(Map.of("SPRING_PROFILES_ACTIVE", "local", "KEEL_PROVISIONING_DRIVER", "aws",
                "KEEL_AWS_WAIT_SCALE", "0.02",
                "SERVER_PORT", Integer.toString(port), "KEEL_MANAGEMENT_PORT", "0", "KEEL_WORKER_ID", "e2e-" + suffix,
                "KEEL_HEARTBEAT_INTERVAL", "1s", "KEEL_DB_URL", freshDatabase(),
                // Drift (a machine EC2 reports gone) is looked for every 5 s rather than 60.
                "KEEL_DRIFT_INTERVAL", "5s"));
        backend = pb.start();
        mark("backend starting on " + api + ", log " + log);

        state = Path.of("target", "it-logs", "e2e-runner-" + suffix);
        ec2 = Main.client(URI.create(System.getenv("KEEL_AWS_ENDPOINT")), REGION);
        runner = new LocalRunner(ec2, new LocalRunner.Settings(state, Path.of(System.getProperty("keel.kafkaLibs",
                "target/kafka-libs")), Main.javaBin(), System.getProperty("java.class.path"), Duration.ofSeconds(1),
                10)).onlyInstances(ours::contains);
        runner.start();

        await("the backend ready", Duration.ofSeconds(90), () -> {
            assertThat(backend.isAlive()).as("backend process alive (see " + log + ")").isTrue();
            try {
                return http.send(HttpRequest.newBuilder(URI.create(api + "/readyz")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        if (runner != null) {
            runner.close();
            mark("runner closed");
        }
        // After a failure, leave no running broker instances behind in the emulator for other runners to pick up,
        // and ask for the delete, so that no later backend on this database repairs them back (drift repair).
        for (String id : ours) {
            try {
                if (backend != null && backend.isAlive()) {
                    call("DELETE", "/instances/" + id, null);
                }
                List<String> left = ec2.describeInstances(b -> b.filters(f -> f.name("tag:byoc:instance-id").values(id),
                        f -> f.name("instance-state-name").values("pending", "running"))).reservations().stream()
                        .flatMap(r -> r.instances().stream()).map(i -> i.instanceId()).toList();
                if (!left.isEmpty()) {
                    ec2.terminateInstances(b -> b.instanceIds(left));
                }
            } catch (RuntimeException e) {
                mark("clean-up of " + id + " failed: " + e);
            }
        }
        if (backend != null) {
            backend.destroy();
            if (!backend.waitFor(30, TimeUnit.SECONDS)) {
                backend.destroyForcibly().waitFor();
            }
            mark("backend stopped");
        }
        if (ec2 != null) {
            ec2.close();
        }
    }

    @Test
    void brokersFollowTheInstanceFromCreateToDelete() throws Exception {
        // The customer onboards: the served template through CloudFormation, a VPC with a subnet per zone.
        String roleArn = onboard(call("GET", "/cloud-accounts/onboarding-template", null).body);
        String vpcId = ec2.createVpc(b -> b.cidrBlock("10.43.0.0/16")).vpc().vpcId();
        List<Map<String, String>> subnets = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String zone = REGION + (char) ('a' + i);
            String cidr = "10.43." + i + ".0/24";
            subnets.add(Map.of("availabilityZone", zone, "subnetId",
                    ec2.createSubnet(b -> b.vpcId(vpcId).cidrBlock(cidr).availabilityZone(zone)).subnet().subnetId()));
        }
        // As in a real VPC, a default route (here to an internet gateway) on the main route table: the brokers' way to
        // the EC2 API, which Keel checks before it creates anything.
        String gateway = ec2.createInternetGateway(b -> { }).internetGateway().internetGatewayId();
        ec2.attachInternetGateway(b -> b.internetGatewayId(gateway).vpcId(vpcId));
        ec2.createRoute(b -> b.destinationCidrBlock("0.0.0.0/0").gatewayId(gateway).routeTableId(ec2.describeRouteTables(
                r -> r.filters(f -> f.name("vpc-id").values(vpcId), f -> f.name("association.main").values("true")))
                .routeTables().getFirst().routeTableId()));
        Response account = call("POST", "/cloud-accounts", Map.of("name", "e2e-" + suffix,
                "awsAccountId", roleArn.split(":")[4], "roleArn", roleArn, "regions", List.of(REGION)));
        assertThat(account.status).as(account.body).isEqualTo(201);
        mark("account onboarded: " + roleArn);

        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "e2e-" + suffix);
        body.put("cloudAccountId", account.json().get("id").asText());
        body.put("region", REGION);
        body.put("network", Map.of("vpcId", vpcId, "subnets", subnets));
        body.put("wal", Map.of("type", "S3"));
        body.put("aku", 3);
        Response created = call("POST", "/instances", body);
        assertThat(created.status).as(created.body).isEqualTo(202);
        String id = created.json().get("instanceId").asText();
        ours.add(id);
        // The default admin user's password is in the create's answer, and nowhere after it.
        admin = new KafkaLogin(created.json().at("/adminCredentials/username").asText(),
                created.json().at("/adminCredentials/password").asText());
        assertThat(admin.user()).isEqualTo("admin");
        assertThat(admin.password()).hasSizeGreaterThanOrEqualTo(32);
        awaitOperation(created.json().get("id").asText());
        JsonNode running = call("GET", "/instances/" + id, null).json();
        assertThat(running.get("state").asText()).isEqualTo("RUNNING");
        assertThat(running.toString()).doesNotContain(admin.password());

        String bootstrap = awaitLocalBootstrap(id, 3);
        mark("RUNNING; bootstrap endpoint " + bootstrap);
        JsonNode connection = call("GET", "/instances/" + id, null).json().get("connection");
        assertThat(connection.get("securityProtocol").asText()).isEqualTo("SASL_SSL");
        assertThat(connection.get("saslMechanism").asText()).isEqualTo("SCRAM-SHA-512");
        downloadCa(connection.get("caCertificateUrl").asText());
        awaitAccess(id, "users/admin");

        try (Admin admin = Admin.create(client(bootstrap, this.admin))) {
            awaitBrokersInMetadata(admin, 3);
            admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 3))).all().get(30, TimeUnit.SECONDS);
        }
        accessIsEnforced(id, bootstrap);

        // Scale 3 → 6 AKU with the instance's ETag.
        HttpResponse<String> current = send("GET", "/instances/" + id, null, null);
        String etag = current.headers().firstValue("ETag").orElseThrow();
        Response scaled = new Response(send("PATCH", "/instances/" + id, Map.of("aku", 6), etag));
        assertThat(scaled.status).as(scaled.body).isEqualTo(202);
        awaitOperation(scaled.json().get("id").asText());
        int brokers = call("GET", "/instances/" + id, null).json().at("/sizing/brokerCount").asInt();
        assertThat(brokers).isGreaterThan(3);
        try (Admin admin = Admin.create(client(bootstrap, this.admin))) {
            awaitBrokersInMetadata(admin, brokers);
        }
        String scaledBootstrap = awaitLocalBootstrap(id, brokers);
        awaitEveryBrokerAuthenticates(scaledBootstrap, admin);
        assertThat(consumeAll(client(bootstrap, this.admin), TOPIC, "after-scale")).isEqualTo(RECORDS);
        mark("scaled to " + brokers + " brokers, every record still readable; bootstrap " + scaledBootstrap);
        try (Admin admin = Admin.create(client(scaledBootstrap, this.admin))) {
            admin.createTopics(List.of(new NewTopic(SPREAD, 2 * brokers, (short) 1))).all().get(30, TimeUnit.SECONDS);
            assertThat(replicaHolders(admin, SPREAD)).as("the new brokers hold partitions").anyMatch(node -> node >= 3);
        }
        produce(client(scaledBootstrap, this.admin), SPREAD);

        // The load tool's traffic reaches the control plane through the agents' 10 s reports, and the figures agree.
        measureLoad(id, scaledBootstrap);
        loseOneBroker(id, scaledBootstrap);
        scaleDownDrainingTheSurplus(id);

        // Delete: every broker process (agents and their Kafka JVMs) stops.
        List<ProcessHandle> processes = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        for (BrokerStatus s : runner.status()) {
            if (id.equals(s.instanceId())) {
                ProcessHandle agent = ProcessHandle.of(s.agentPid()).orElseThrow();
                processes.add(agent);
                processes.addAll(agent.descendants().toList());
                ports.add(Integer.parseInt(s.address().substring(s.address().indexOf(':') + 1)));
            }
        }
        assertThat(ports).hasSize(3);
        assertThat(processes).as("an agent and its broker per node (if not: is another local runner, e.g. ./dev up's, "
                + "watching the same LocalStack? See the agents' logs in " + state + ")").hasSize(2 * 3);
        // The backend may have started an operation of its own (e.g. a drift repair): delete once it is done.
        Response[] deleted = new Response[1];
        await("the delete accepted", OPERATION_TIMEOUT, () -> {
            deleted[0] = call("DELETE", "/instances/" + id, null);
            return deleted[0].status != 409 || !deleted[0].body.contains("operation-in-progress");
        });
        assertThat(deleted[0].status).as(deleted[0].body).isEqualTo(202);
        awaitOperation(deleted[0].json().get("id").asText());
        assertThat(call("GET", "/instances/" + id, null).json().get("state").asText()).isEqualTo("DELETED");
        await("every broker process stopped", Duration.ofSeconds(60), () ->
                processes.stream().noneMatch(ProcessHandle::isAlive)
                        && runner.status().stream().noneMatch(s -> id.equals(s.instanceId()))
                        && ports.stream().noneMatch(LocalRunner::reachable));
        mark("deleted; " + processes.size() + " processes stopped");
    }

    // ------------------------------------------------------------------ the load tool

    /**
     * Runs the load tool for a minute at a steady rate: within 30 s of the load the instance's metrics show it, and
     * the brokers' bytes-in and messages-in over the steady part match what the tool published within 10 %.
     */
    private void measureLoad(String id, String bootstrap) throws Exception {
        int seconds = 60;
        Path clientProperties = state.resolve("admin-client.properties");
        Properties adminClient = client(bootstrap, admin);
        adminClient.remove(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        try (var out = Files.newBufferedWriter(clientProperties)) {
            adminClient.store(out, "the admin user's client.properties");
        }
        Process perf = new ProcessBuilder("bash", Path.of("..", "perf", "perf").toString(), "--bootstrap", bootstrap,
                "--command-config", clientProperties.toAbsolutePath().toString(),
                "--rate", "500", "--message-size", "4096", "--duration", String.valueOf(seconds),
                "--report-interval", "10", "--json").redirectErrorStream(true).start();
        List<String> output = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Instant> firstReport = new CompletableFuture<>();
        Thread reader = Thread.ofPlatform().name("perf-output").start(() -> {
            try (BufferedReader lines = perf.inputReader()) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    output.add(line);
                    System.err.println("[perf] " + line);
                    Matcher report = PERF_REPORT.matcher(line);
                    if (report.lookingAt()) {
                        // The report says how long the load has run: when it started, whatever the tool's start-up took.
                        firstReport.complete(Instant.now().minusMillis((long) (Double.parseDouble(report.group(1)) * 1000)));
                    }
                }
            } catch (IOException e) {
                firstReport.completeExceptionally(e);
            }
            firstReport.completeExceptionally(new AssertionError("the load tool ended without a report"));
        });
        Instant loadStart = firstReport.get(2, TimeUnit.MINUTES);
        Set<String> early = Set.of("bytesInPerSec", "produceRequestsPerSec");
        await(early + " non-zero within 30 s of the load", Duration.between(Instant.now(), loadStart.plusSeconds(30)), () -> {
            JsonNode series = metrics(id, loadStart, Instant.now(), String.join(",", early)).get("series");
            Set<String> nonZero = new HashSet<>();
            for (JsonNode one : series) {
                if (StreamSupport.stream(one.get("points").spliterator(), false).anyMatch(p -> p.get("v").asDouble() > 0)) {
                    nonZero.add(one.get("name").asText());
                }
            }
            return nonZero.equals(early);
        });
        assertThat(perf.waitFor()).as(String.join("\n", output)).isZero();
        reader.join();
        JsonNode totals = null;
        for (String line : output) {
            if (line.startsWith("{")) {
                totals = json.readTree(line);
            }
        }
        assertThat(totals).as("the tool's JSON totals").isNotNull();

        // A 10 s bucket holds reports covering the 10 s before them: keep the buckets whose reports all fall in the load.
        Instant from = Instant.ofEpochSecond((loadStart.getEpochSecond() + 19) / 10 * 10);
        Instant to = loadStart.plusSeconds(seconds - 10);
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), to.plusSeconds(13)).toMillis()));
        JsonNode steady = metrics(id, from, to, "bytesInPerSec,messagesInPerSec");
        Map<String, Double> expected = Map.of("bytesInPerSec", totals.get("publishBytesPerSec").asDouble(),
                "messagesInPerSec", totals.get("publishRate").asDouble());
        for (JsonNode series : steady.get("series")) {
            double[] values = StreamSupport.stream(series.get("points").spliterator(), false)
                    .mapToDouble(p -> p.get("v").asDouble()).toArray();
            assertThat(values).as("steady buckets of " + series.get("name").asText() + ": " + steady).hasSizeGreaterThanOrEqualTo(2);
            double reported = Arrays.stream(values).average().orElseThrow();
            double sent = expected.get(series.get("name").asText());
            mark(String.format(Locale.ROOT, "%s: the tool sent %.1f/s, the brokers reported %.1f/s (%+.1f %%)",
                    series.get("name").asText(), sent, reported, 100 * (reported - sent) / sent));
            assertThat(reported).as(series.get("name").asText()).isCloseTo(sent, within(sent * 0.10));
        }
    }

    /** A periodic line of the load tool: the seconds the load has run, first. */
    private static final Pattern PERF_REPORT = Pattern.compile("\\s*(\\d+\\.\\d+) s\\s+pub ");

    private JsonNode metrics(String id, Instant from, Instant to, String names) {
        return call("GET", "/instances/" + id + "/metrics?step=10&names=" + names + "&from=" + from + "&to=" + to, null).json();
    }

    /**
     * A database of its own: the drift check would otherwise look at every instance other tests left in the shared
     * one, and repair those in LocalStack.
     */
    private String freshDatabase() throws SQLException {
        String url = System.getenv("KEEL_DB_URL");
        String name = "keel_brokers_" + suffix;
        try (Connection c = DriverManager.getConnection(url, System.getenv().getOrDefault("KEEL_DB_USERNAME", "keel"),
                System.getenv().getOrDefault("KEEL_DB_PASSWORD", "keel")); Statement statement = c.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        }
        return url.substring(0, url.lastIndexOf('/') + 1) + name;
    }

    // ------------------------------------------------------------------ access

    /** A SCRAM user's name and password. */
    record KafkaLogin(String user, String password) {
    }

    /**
     * What the console's {@code client.properties} says: SCRAM-SHA-512 over TLS, the broker certificates verified
     * against the instance's CA (hostname verification on).
     */
    private Properties client(String bootstrap, KafkaLogin login) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.mechanism", "SCRAM-SHA-512");
        p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + login.user() + "\" password=\"" + login.password() + "\";");
        p.put("ssl.truststore.type", "PEM");
        p.put("ssl.truststore.location", caFile.toAbsolutePath().toString());
        return p;
    }

    /**
     * Each broker on its own authenticates the user: one that started after the user's credential was written has it
     * written again once it serves (the control plane's credential redelivery), within seconds.
     */
    private void awaitEveryBrokerAuthenticates(String bootstrap, KafkaLogin login) throws InterruptedException {
        for (String broker : bootstrap.split(",")) {
            await(broker + " authenticating " + login.user(), Duration.ofSeconds(60), () -> {
                try (Admin one = Admin.create(client(broker.trim(), login))) {
                    one.describeCluster().clusterId().get(10, TimeUnit.SECONDS);
                    return true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof SaslAuthenticationException) {
                        return false;
                    }
                    throw e;
                }
            });
        }
    }

    private void downloadCa(String url) throws IOException {
        HttpResponse<String> ca = send("GET", url.replaceFirst("^/api/v1", ""), null, null);
        assertThat(ca.statusCode()).as(ca.body()).isEqualTo(200);
        assertThat(ca.body()).startsWith("-----BEGIN CERTIFICATE-----");
        caFile = state.resolve("ca.pem");
        Files.createDirectories(state);
        Files.writeString(caFile, ca.body());
    }

    /** Waits until the user or ACL at {@code path} (under the instance) is on the brokers as recorded. */
    private JsonNode awaitAccess(String id, String path) throws InterruptedException {
        JsonNode[] item = new JsonNode[1];
        await(path + " ACTIVE", Duration.ofSeconds(60), () -> {
            item[0] = call("GET", "/instances/" + id + "/" + path, null).json();
            return "ACTIVE".equals(item[0].path("status").asText());
        });
        return item[0];
    }

    /**
     * Only who the API says may: a client without credentials and one with a wrong password are refused, a user
     * without an ACL is refused on the topic, the same user with ACLs produces and consumes every record over TLS,
     * an ACL deleted with Kafka's Admin API behind the product's back is restored, and a user deleted through the
     * API loses access within a minute.
     */
    private void accessIsEnforced(String id, String bootstrap) throws Exception {
        Properties anonymous = new Properties();
        anonymous.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        anonymous.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "8000");
        anonymous.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "4000");
        try (Admin plaintext = Admin.create(anonymous)) {
            assertThatThrownBy(() -> plaintext.describeCluster().nodes().get(15, TimeUnit.SECONDS))
                    .as("a client without TLS or credentials").isInstanceOf(ExecutionException.class);
        }

        Response user = call("POST", "/instances/" + id + "/users", Map.of("name", "orders-app"));
        assertThat(user.status).as(user.body).isEqualTo(201);
        KafkaLogin app = new KafkaLogin("orders-app", user.json().get("password").asText());
        awaitAccess(id, "users/orders-app");

        try (Admin wrong = Admin.create(client(bootstrap, new KafkaLogin(app.user(), app.password() + "x")))) {
            assertThatThrownBy(() -> wrong.describeCluster().nodes().get(30, TimeUnit.SECONDS))
                    .as("a wrong password").hasCauseInstanceOf(SaslAuthenticationException.class);
        }
        try (KafkaProducer<String, String> refused = new KafkaProducer<>(client(bootstrap, app), new StringSerializer(),
                new StringSerializer())) {
            assertThatThrownBy(() -> refused.send(new ProducerRecord<>(TOPIC, "k", "v")).get(30, TimeUnit.SECONDS))
                    .as("a user without an ACL on the topic").hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        mark("refused: no credentials, a wrong password, a user without an ACL");

        List<String> acls = new ArrayList<>();
        for (Map<String, String> acl : List.of(
                Map.of("resourceType", "TOPIC", "resourceName", TOPIC, "patternType", "LITERAL", "operation", "WRITE"),
                Map.of("resourceType", "TOPIC", "resourceName", TOPIC, "patternType", "LITERAL", "operation", "READ"),
                Map.of("resourceType", "GROUP", "resourceName", "orders-app", "patternType", "PREFIXED",
                        "operation", "READ"))) {
            Map<String, String> request = new LinkedHashMap<>(acl);
            request.put("principal", "User:orders-app");
            request.put("permission", "ALLOW");
            Response created = call("POST", "/instances/" + id + "/acls", request);
            assertThat(created.status).as(created.body).isEqualTo(201);
            acls.add(created.json().get("id").asText());
        }
        for (String acl : acls) {
            awaitAccess(id, "acls/" + acl);
        }
        produce(client(bootstrap, app), TOPIC);
        assertThat(consumeAll(client(bootstrap, app), TOPIC, "orders-app")).isEqualTo(RECORDS);
        mark("orders-app produced and consumed " + RECORDS + " records over TLS");

        // Behind the product's back: the admin deletes orders-app's WRITE ACL with Kafka's own Admin API.
        AclBindingFilter write = new AclBindingFilter(
                new ResourcePatternFilter(ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
                new AccessControlEntryFilter("User:orders-app", "*", AclOperation.WRITE, AclPermissionType.ALLOW));
        try (Admin kafkaAdmin = Admin.create(client(bootstrap, admin))) {
            assertThat(kafkaAdmin.deleteAcls(List.of(write)).all().get(30, TimeUnit.SECONDS)).hasSize(1);
            await("the deleted ACL restored", Duration.ofSeconds(60), () ->
                    kafkaAdmin.describeAcls(write).values().get(10, TimeUnit.SECONDS).size() == 1);
        }
        await("the restoration shown", Duration.ofSeconds(30), () ->
                !call("GET", "/instances/" + id + "/acls/" + acls.getFirst(), null).json().path("restoredAt").isNull());
        mark("an ACL deleted with Kafka's Admin API was restored");

        Response deleted = call("DELETE", "/instances/" + id + "/users/orders-app", null);
        assertThat(deleted.status).as(deleted.body).isEqualTo(202);
        long deletedAt = System.nanoTime();
        await("the deleted user refused", Duration.ofSeconds(60), () -> {
            try (Admin gone = Admin.create(client(bootstrap, app))) {
                gone.describeCluster().nodes().get(30, TimeUnit.SECONDS);
                return false;
            } catch (ExecutionException e) {
                return e.getCause() instanceof SaslAuthenticationException;
            }
        });
        mark(String.format(Locale.ROOT, "the user deleted through the API was refused %.1f s later",
                (System.nanoTime() - deletedAt) / 1e9));
    }

    // ------------------------------------------------------------------ a lost broker

    /**
     * One broker falls silent (its agent and broker killed, EC2 still says running): within 30 s the instance is
     * Degraded naming the broker and says its agent is silent, and Keel replaces nothing for the silence alone. Then EC2
     * itself reports the machine terminated: the drift check plans its replacement, a repair by keel-reconciler
     * replaces it alone, the node comes back on a new EC2 instance with its data, and the conditions clear.
     */
    private void loseOneBroker(String id, String bootstrap) throws Exception {
        BrokerStatus victim = runner.status().stream().filter(s -> id.equals(s.instanceId()))
                .max(java.util.Comparator.comparingInt(BrokerStatus::nodeId)).orElseThrow();
        ProcessHandle agent = ProcessHandle.of(victim.agentPid()).orElseThrow();
        List<ProcessHandle> machine = new ArrayList<>(agent.descendants().toList());
        machine.add(agent);
        machine.forEach(ProcessHandle::destroyForcibly);
        long killedAt = System.nanoTime();
        String broker = "broker " + victim.nodeId();
        mark("killed node " + victim.nodeId() + " (" + victim.ec2InstanceId() + "): " + machine.size() + " processes");

        await("Degraded naming " + broker + " and its agent silent", Duration.ofSeconds(30), () -> {
            JsonNode instance = call("GET", "/instances/" + id, null).json();
            JsonNode degraded = condition(instance, "Degraded");
            return degraded.get("status").asText().equals("True") && degraded.get("message").asText().contains(broker)
                    && condition(instance, "AgentsSilent").get("status").asText().equals("True");
        });
        mark(String.format(Locale.ROOT, "Degraded naming %s %.1f s after the kill", broker, (System.nanoTime() - killedAt) / 1e9));
        // Several drift checks (every 5 s) find nothing to repair: silence is no evidence.
        Thread.sleep(SILENCE_IS_NO_EVIDENCE.toMillis());
        assertThat(call("GET", "/instances/" + id + "/operations?limit=1", null).json().at("/items/0/type").asText())
                .as("no repair for a silent agent").isNotEqualTo("REPAIR");
        assertThat(ec2.describeInstances(b -> b.instanceIds(victim.ec2InstanceId())).reservations().getFirst()
                .instances().getFirst().state().nameAsString()).as("the silent machine is left running").isEqualTo("running");

        ec2.terminateInstances(b -> b.instanceIds(victim.ec2InstanceId()));
        mark("EC2 terminated " + victim.ec2InstanceId());
        JsonNode[] repair = new JsonNode[1];
        await("a repair replacing broker-" + victim.nodeId(), OPERATION_TIMEOUT, () -> {
            repair[0] = call("GET", "/instances/" + id + "/operations?limit=1", null).json().at("/items/0");
            return repair[0].get("type").asText().equals("REPAIR");
        });
        assertThat(repair[0].get("requestedBy").asText()).isEqualTo("keel-reconciler");
        assertThat(repair[0].get("reason").asText()).contains("broker-" + victim.nodeId(), "is missing");
        awaitOperation(repair[0].get("id").asText());
        await("node " + victim.nodeId() + " running on a new machine", Duration.ofSeconds(60), () -> runner.status().stream()
                .anyMatch(s -> id.equals(s.instanceId()) && s.nodeId() == victim.nodeId()
                        && !s.ec2InstanceId().equals(victim.ec2InstanceId()) && "RUNNING".equals(s.state())));
        await("the Degraded condition to clear", Duration.ofSeconds(60), () ->
                condition(call("GET", "/instances/" + id, null).json(), "Degraded").get("status").asText().equals("False"));
        assertThat(condition(call("GET", "/instances/" + id, null).json(), "AgentsSilent").get("status").asText())
                .isEqualTo("False");
        awaitEveryBrokerAuthenticates(bootstrap, admin);
        assertThat(consumeAll(client(bootstrap, admin), TOPIC, "after-repair")).isEqualTo(RECORDS);
        mark("broker " + victim.nodeId() + " replaced and healthy; every record still readable");
    }

    private static JsonNode condition(JsonNode instance, String type) {
        for (JsonNode condition : instance.get("conditions")) {
            if (condition.get("type").asText().equals(type)) {
                return condition;
            }
        }
        return new ObjectMapper().createObjectNode().put("status", "absent").put("message", "");
    }

    // ------------------------------------------------------------------ the customer's account

    private String onboard(String template) throws InterruptedException {
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        String stackName = "keel-e2e-" + suffix;
        try (CloudFormationClient cfn = CloudFormationClient.builder().region(Region.of(REGION))
                .endpointOverride(URI.create(System.getenv("KEEL_AWS_ENDPOINT"))).credentialsProvider(credentials)
                .build()) {
            cfn.createStack(b -> b.stackName(stackName).templateBody(template)
                    .capabilities(Capability.CAPABILITY_NAMED_IAM)
                    .parameters(p -> p.parameterKey("RoleName").parameterValue(stackName)));
            Supplier<Stack> stack = () -> cfn.describeStacks(b -> b.stackName(stackName)).stacks().get(0);
            await("the onboarding stack", Duration.ofSeconds(60), () -> {
                String status = stack.get().stackStatusAsString();
                assertThat(status).as(stack.get().stackStatusReason()).doesNotContain("FAILED", "ROLLBACK");
                return stack.get().stackStatus() == StackStatus.CREATE_COMPLETE;
            });
            return stack.get().outputs().stream().filter(o -> o.outputKey().equals("RoleArn")).findFirst()
                    .orElseThrow().outputValue();
        }
    }

    // ------------------------------------------------------------------ Kafka

    /**
     * Scales back to 3 AKU: each surplus broker's agent moves its partitions to the brokers that stay before its
     * machine is terminated, so the single-replica topic stays whole.
     */
    private void scaleDownDrainingTheSurplus(String id) throws Exception {
        HttpResponse<String> current = send("GET", "/instances/" + id, null, null);
        Response scaled = new Response(send("PATCH", "/instances/" + id, Map.of("aku", 3),
                current.headers().firstValue("ETag").orElseThrow()));
        assertThat(scaled.status).as(scaled.body).isEqualTo(202);
        awaitOperation(scaled.json().get("id").asText());
        String remaining = awaitLocalBootstrap(id, 3);
        try (Admin admin = Admin.create(client(remaining, this.admin))) {
            assertThat(replicaHolders(admin, SPREAD)).as("every replica on a broker that stays").allMatch(node -> node < 3);
            awaitBrokersInMetadata(admin, 3);
        }
        assertThat(consumeAll(client(remaining, admin), SPREAD, "after-scale-down")).isEqualTo(RECORDS);
        mark("scaled down to 3 brokers: the surplus brokers were drained, every record of '" + SPREAD + "' readable");
    }

    private static Set<Integer> replicaHolders(Admin admin, String topic) throws Exception {
        Set<Integer> holders = new HashSet<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                .forEach(p -> p.replicas().forEach(node -> holders.add(node.id())));
        return holders;
    }

    private void produce(Properties client, String topic) throws Exception {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(),
                new StringSerializer())) {
            var last = producer.send(new ProducerRecord<>(topic, "k0", "v0"));
            for (int i = 1; i < RECORDS; i++) {
                last = producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i));
            }
            producer.flush();
            last.get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads the topic from the start with a new group; returns how many distinct records it read, all intact. */
    private int consumeAll(Properties client, String topic, String group) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group + "-" + suffix);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        Set<String> keys = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (keys.size() < RECORDS && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    assertThat(r.value()).isEqualTo("v" + r.key().substring(1));
                    keys.add(r.key());
                }
            }
        }
        return keys.size();
    }

    /** Waits until the API's bootstrap endpoint is exactly the local runner's brokers for the instance. */
    private String awaitLocalBootstrap(String id, int brokers) throws InterruptedException {
        String[] seen = new String[1];
        await(brokers + " local broker addresses as the bootstrap endpoint", Duration.ofSeconds(60), () -> {
            seen[0] = call("GET", "/instances/" + id, null).json().at("/inventory/bootstrapServers").asText();
            List<String> local = runner.status().stream().filter(s -> id.equals(s.instanceId()))
                    .map(BrokerStatus::address).sorted().toList();
            List<String> shown = Arrays.stream(seen[0].split(",")).map(String::trim).sorted().toList();
            return local.size() == brokers && shown.equals(local)
                    && shown.stream().allMatch(a -> a.startsWith("127.0.0.1:"));
        });
        return seen[0];
    }

    // ------------------------------------------------------------------ the API

    record Response(int status, String body) {
        Response(HttpResponse<String> r) {
            this(r.statusCode(), r.body());
        }

        JsonNode json() {
            try {
                return new ObjectMapper().readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }
    }

    private Response call(String method, String path, Object body) {
        return new Response(send(method, path, body, null));
    }

    private HttpResponse<String> send(String method, String path, Object body, String ifMatch) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api + "/api/v1" + path))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token());
            if (ifMatch != null) {
                b.header("If-Match", ifMatch);
            }
            if (body != null) {
                b.header("Content-Type", "application/json");
            }
            b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** acme-editor's token from Keycloak (password grant), renewed every minute. */
    private String token() throws IOException, InterruptedException {
        if (token == null || System.nanoTime() - tokenAt > Duration.ofMinutes(1).toNanos()) {
            String form = "grant_type=password&client_id=keel-cli&username=acme-editor&password="
                    + URLEncoder.encode("keel-demo", StandardCharsets.UTF_8);
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(System.getenv("KEEL_KEYCLOAK_URL")
                            + "/realms/byoc/protocol/openid-connect/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("token from Keycloak: " + r.body()).isEqualTo(200);
            token = json.readTree(r.body()).get("access_token").asText();
            tokenAt = System.nanoTime();
        }
        return token;
    }

    /** A broker joins the cluster metadata a little after its agent starts it, and leaves it after it stops. */
    private static void awaitBrokersInMetadata(Admin admin, int brokers) throws InterruptedException {
        await(brokers + " brokers in the cluster metadata", Duration.ofSeconds(60), () ->
                admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream().map(Node::id).distinct().count() == brokers);
    }

    private void awaitOperation(String operationId) throws InterruptedException {
        Predicate<String> done = s -> List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(s);
        JsonNode[] op = new JsonNode[1];
        await("operation " + operationId, OPERATION_TIMEOUT, () -> {
            op[0] = call("GET", "/operations/" + operationId, null).json();
            return done.test(op[0].get("state").asText());
        });
        assertThat(op[0].get("state").asText()).as(op[0].toString()).isEqualTo("SUCCEEDED");
    }

    // ------------------------------------------------------------------ waiting

    interface Condition {
        boolean met() throws Exception;
    }

    private static final long T0 = System.nanoTime();

    private static void mark(String what) {
        System.err.printf("[BrokersEndToEndIT +%.1fs] %s%n", (System.nanoTime() - T0) / 1e9, what);
    }

    private static void await(String what, Duration timeout, Condition condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        mark("waiting for " + what);
        while (true) {
            try {
                if (condition.met()) {
                    return;
                }
            } catch (AssertionError e) {
                throw e;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for: " + what, e);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for: " + what);
            }
            Thread.sleep(250);
        }
    }
}

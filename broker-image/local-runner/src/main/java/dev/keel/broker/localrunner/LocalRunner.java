package dev.keel.broker.localrunner;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.keel.broker.agent.BootUserData;
import dev.keel.broker.agent.BrokerConfigRenderer;
import dev.keel.broker.agent.LocalOverrides;
import dev.keel.broker.agent.NodeSpec;
import dev.keel.broker.agent.Peer;
import dev.keel.broker.agent.SpecException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.CreateTagsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * Plays EC2: every poll lists the emulator's running Keel broker instances (DescribeInstances with
 * {@code tag:byoc:managed-by=keel} and {@code instance-state-name=running}), starts the broker agent as a local
 * process for each new one (with an Apache Kafka broker from Maven Central standing in for AutoMQ, on loopback
 * ports derived from the instance and node ids), stops the agent of each instance that is gone, tags each running
 * broker's instance with {@code keel:local-address=127.0.0.1:<port>}, and writes {@code status.json}.
 */
public final class LocalRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRunner.class);
    public static final String ADDRESS_TAG = "keel:local-address";
    private static final Pattern KAFKA_JAR = Pattern.compile("kafka_2\\.13-(\\d+\\.\\d+\\.\\d+)\\.jar");

    /** How the runner is set up. {@code classpath}: where the agent's classes are (the runner's own classpath). */
    public record Settings(Path stateDir, Path kafkaLibs, String javaBin, String classpath, Duration pollInterval,
                           int reportIntervalSeconds) {
    }

    private final Ec2Client ec2;
    private final Settings settings;
    private final UserDataSource userData;
    private final String kafkaVersion;
    private final Map<String, Node> nodes = new ConcurrentHashMap<>();
    private final Map<String, String> refused = new ConcurrentHashMap<>();
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private volatile Predicate<String> scope = keelInstanceId -> true;
    private ScheduledExecutorService scheduler;

    private static final class Node {
        final String ec2InstanceId;
        final UUID instanceId;
        final int nodeId;
        final String zone;
        final LocalPorts ports;
        final Path workDir;
        final Process agent;
        volatile String state = "STARTING";
        volatile boolean tagged;

        Node(String ec2InstanceId, UUID instanceId, int nodeId, String zone, LocalPorts ports, Path workDir,
             Process agent) {
            this.ec2InstanceId = ec2InstanceId;
            this.instanceId = instanceId;
            this.nodeId = nodeId;
            this.zone = zone;
            this.ports = ports;
            this.workDir = workDir;
            this.agent = agent;
        }

        String address() {
            return "127.0.0.1:" + ports.listener();
        }
    }

    public LocalRunner(Ec2Client ec2, Settings settings) throws IOException {
        this.ec2 = ec2;
        this.settings = settings;
        this.userData = new UserDataSource(ec2);
        this.kafkaVersion = kafkaVersion(settings.kafkaLibs());
        Files.createDirectories(settings.stateDir());
    }

    /**
     * Runs brokers only for the Keel instances ({@code byoc:instance-id}) the predicate accepts (default: all), so a
     * test sharing an emulator with other work runs only its own.
     */
    public LocalRunner onlyInstances(Predicate<String> keelInstanceIds) {
        this.scope = keelInstanceIds;
        return this;
    }

    public String standInBanner() {
        return "Apache Kafka " + kafkaVersion + " standing in for AutoMQ; data is on local disk, not S3";
    }

    static String kafkaVersion(Path libs) throws IOException {
        if (!Files.isDirectory(libs)) {
            throw new IOException("no Kafka jars at " + libs + " (build broker-image/local-runner first)");
        }
        try (var files = Files.list(libs)) {
            return files.map(p -> KAFKA_JAR.matcher(p.getFileName().toString())).filter(Matcher::matches)
                    .map(m -> m.group(1)).findFirst()
                    .orElseThrow(() -> new IOException("no kafka_2.13-<version>.jar in " + libs));
        }
    }

    public void start() {
        LOG.warn("STAND-IN BROKERS: {}", standInBanner());
        System.out.println("keel-local-runner: " + standInBanner());
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "local-runner-poll");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::safePoll, 0, settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    private void safePoll() {
        try {
            pollOnce();
        } catch (RuntimeException e) {
            LOG.warn("poll failed: {}", e.toString());
        }
    }

    /** One reconciliation: start what is new, stop what is gone, tag what came up, write the status file. */
    public synchronized void pollOnce() {
        List<Instance> running = runningBrokers();
        Map<String, Instance> byId = new LinkedHashMap<>();
        running.forEach(i -> byId.put(i.instanceId(), i));

        Map<String, Node> gone = new LinkedHashMap<>();
        nodes.forEach((ec2Id, n) -> {
            if (!byId.containsKey(ec2Id)) {
                LOG.info("instance {} (node {}) is gone: stopping its broker", ec2Id, n.nodeId);
                gone.put(ec2Id, n);
            }
        });
        stopAll(gone.values());
        // Interrupted (the runner is closing): what still runs stays listed, for close() to stop.
        gone.forEach((ec2Id, n) -> {
            if (!n.agent.isAlive()) {
                nodes.remove(ec2Id);
            }
        });
        refused.keySet().retainAll(byId.keySet());
        for (Instance i : running) {
            if (!nodes.containsKey(i.instanceId()) && !refused.containsKey(i.instanceId())) {
                try {
                    launch(i);
                } catch (SpecException e) {
                    LOG.error("instance {}: node spec refused: {}", i.instanceId(), e.getMessage());
                    refused.put(i.instanceId(), "node spec refused: " + e.getMessage());
                } catch (IOException | RuntimeException e) {
                    LOG.error("instance {}: could not start its broker: {}", i.instanceId(), e.toString());
                    refused.put(i.instanceId(), e.toString());
                }
            }
        }
        for (Node n : nodes.values()) {
            if (!n.agent.isAlive()) {
                n.state = "FAILED";
            } else if (reachable(n.ports.listener())) {
                n.state = "RUNNING";
                if (!n.tagged) {
                    tag(n);
                }
            } else if (!"STARTING".equals(n.state)) {
                n.state = "DEGRADED";
            }
        }
        writeStatus(byId);
    }

    private List<Instance> runningBrokers() {
        DescribeInstancesRequest req = DescribeInstancesRequest.builder().filters(
                Filter.builder().name("tag:byoc:managed-by").values("keel").build(),
                Filter.builder().name("instance-state-name").values("running").build()).build();
        List<Instance> out = new ArrayList<>();
        for (var page : ec2.describeInstancesPaginator(req)) {
            for (Reservation r : page.reservations()) {
                for (Instance i : r.instances()) {
                    // The filter is the contract; checked again because not every emulator applies every filter.
                    if ("running".equals(i.state() == null ? null : i.state().nameAsString())
                            && "keel".equals(UserDataSource.tag(i, "byoc:managed-by"))
                            && UserDataSource.tag(i, "byoc:instance-id") != null
                            && scope.test(UserDataSource.tag(i, "byoc:instance-id"))) {
                        out.add(i);
                    }
                }
            }
        }
        out.sort(Comparator.comparing(Instance::instanceId));
        return out;
    }

    private void launch(Instance i) throws IOException {
        String keelId = UserDataSource.tag(i, "byoc:instance-id");
        String specJson = userData.userData(i, keelId).map(BootUserData::nodeSpec)
                .orElseThrow(() -> new SpecException("(user data)", "instance " + i.instanceId()
                        + " has no user data and no launch template with a node spec"));
        NodeSpec spec = NodeSpec.parse(specJson);
        if (!spec.instanceId().toString().equals(keelId)) {
            throw new SpecException("instanceId", "spec says " + spec.instanceId() + " but the instance is tagged "
                    + keelId);
        }
        String nodeTag = UserDataSource.tag(i, spec.nodeIdTag());
        if (nodeTag == null) {
            throw new SpecException(spec.nodeIdTag(), "tag missing on " + i.instanceId());
        }
        int nodeId;
        try {
            nodeId = Integer.parseInt(nodeTag.trim());
        } catch (NumberFormatException e) {
            throw new SpecException(spec.nodeIdTag(), "tag on " + i.instanceId() + " is not an integer: " + nodeTag);
        }
        String zone = i.placement() != null && i.placement().availabilityZone() != null
                ? i.placement().availabilityZone() : "local";
        LocalPorts ports = LocalPorts.of(spec.instanceId(), nodeId);
        List<Peer> peers = new ArrayList<>();
        for (int n = 0; n < spec.brokerCount(); n++) {
            LocalPorts p = LocalPorts.of(spec.instanceId(), n);
            peers.add(new Peer(n, "127.0.0.1", p.listener(), p.controller(), p.internal(),
                    n == nodeId ? zone : "local"));
        }
        for (int port : new int[]{ports.listener(), ports.controller(), ports.internal(), ports.jmx()}) {
            if (reachable(port)) {
                throw new IOException("port " + port + " on 127.0.0.1 is already in use");
            }
        }
        Path work = settings.stateDir().resolve(spec.instanceId().toString()).resolve("node-" + nodeId);
        Files.createDirectories(work);
        Path specFile = work.resolve("node-spec.json");
        Files.writeString(specFile, specJson);
        int replication = Math.min(3, spec.brokerCount());
        Map<String, String> extra = new LinkedHashMap<>();
        // The stand-in has real replicas on local disk: replicate internal topics across the local brokers.
        extra.put("offsets.topic.replication.factor", Integer.toString(replication));
        extra.put("transaction.state.log.replication.factor", Integer.toString(replication));
        extra.put("group.initial.rebalance.delay.ms", "0");
        String libs = settings.kafkaLibs().toAbsolutePath() + "/*";
        List<String> jmx = List.of("-Dcom.sun.management.jmxremote",
                "-Dcom.sun.management.jmxremote.port={jmxPort}", "-Dcom.sun.management.jmxremote.rmi.port={jmxPort}",
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false",
                "-Dcom.sun.management.jmxremote.host=127.0.0.1", "-Djava.rmi.server.hostname=127.0.0.1");
        List<String> broker = new ArrayList<>(List.of(settings.javaBin(), "-Xms64m", "-Xmx512m",
                "-Dorg.apache.logging.log4j.level=INFO"));
        broker.addAll(jmx);
        broker.addAll(List.of("-cp", libs, "kafka.Kafka", "{config}"));
        List<String> format = List.of(settings.javaBin(), "-Xmx256m", "-cp", libs, "kafka.tools.StorageTool",
                "format", "-t", "{clusterId}", "-c", "{config}", "--ignore-formatted");
        LocalOverrides overrides = new LocalOverrides(nodeId, zone, "127.0.0.1", i.instanceId(), peers, ports.jmx(),
                work.toString(), work.resolve("kafka-logs").toString(), "Apache Kafka " + kafkaVersion, format, broker,
                extra, settings.reportIntervalSeconds(), 15);
        Path overridesFile = work.resolve("local.json");
        overrides.write(overridesFile);

        List<String> agent = List.of(settings.javaBin(), "-Xmx128m", "-cp", settings.classpath(),
                "dev.keel.broker.agent.Main", "--spec", specFile.toString(), "--local", overridesFile.toString());
        Process p = new ProcessBuilder(agent).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("agent.log").toFile())).start();
        Node node = new Node(i.instanceId(), spec.instanceId(), nodeId, zone, ports, work, p);
        nodes.put(i.instanceId(), node);
        LOG.info("instance {} ({} node {}): agent started (pid {}), broker on {} — {}", i.instanceId(),
                spec.instanceName(), nodeId, p.pid(), node.address(), standInBanner());
    }

    private void tag(Node n) {
        try {
            ec2.createTags(CreateTagsRequest.builder().resources(n.ec2InstanceId)
                    .tags(Tag.builder().key(ADDRESS_TAG).value(n.address()).build()).build());
            n.tagged = true;
            LOG.info("instance {} node {}: broker up at {} (tagged {})", n.ec2InstanceId, n.nodeId, n.address(),
                    ADDRESS_TAG);
        } catch (RuntimeException e) {
            LOG.warn("could not tag {}: {}", n.ec2InstanceId, e.toString());
        }
    }

    /**
     * Stops nodes brokers first, then KRaft controllers (nodes 0–2, see {@link BrokerConfigRenderer#CONTROLLERS}),
     * each wave side by side: a broker shuts down cleanly only while the controller quorum is still up; one by one
     * and in any order, a broker left without controllers waits out its whole shutdown timeout.
     */
    private static void stopAll(Collection<Node> toStop) {
        for (boolean controllers : new boolean[]{false, true}) {
            List<Thread> wave = toStop.stream().filter(n -> (n.nodeId < BrokerConfigRenderer.CONTROLLERS) == controllers)
                    .map(n -> Thread.ofPlatform().name("stop-node-" + n.nodeId).start(() -> stop(n))).toList();
            for (Thread t : wave) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void stop(Node n) {
        List<ProcessHandle> descendants = n.agent.descendants().toList();
        n.agent.destroy();
        try {
            if (!n.agent.waitFor(30, TimeUnit.SECONDS)) {
                n.agent.destroyForcibly();
            }
        } catch (InterruptedException e) {
            n.agent.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(h -> {
            h.destroy();
            h.onExit().completeOnTimeout(h, 10, TimeUnit.SECONDS).join();
            if (h.isAlive()) {
                h.destroyForcibly();
            }
        });
    }

    static boolean reachable(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 300);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public List<BrokerStatus> status() {
        List<BrokerStatus> out = new ArrayList<>();
        for (Node n : nodes.values()) {
            out.add(new BrokerStatus(n.instanceId.toString(), n.ec2InstanceId, n.nodeId, n.zone, n.address(), n.state,
                    n.agent.isAlive() ? n.agent.pid() : null, n.workDir.toString(), null));
        }
        refused.forEach((ec2Id, error) -> out.add(new BrokerStatus(null, ec2Id, -1, null, null, "REFUSED", null, null,
                error)));
        out.sort(Comparator.comparing((BrokerStatus s) -> String.valueOf(s.instanceId()))
                .thenComparingInt(BrokerStatus::nodeId));
        return out;
    }

    private void writeStatus(Map<String, Instance> running) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("standIn", standInBanner());
        doc.put("updatedAt", Instant.now().toString());
        doc.put("brokers", status());
        Map<String, List<String>> bootstrap = new HashMap<>();
        for (Node n : nodes.values()) {
            if ("RUNNING".equals(n.state)) {
                bootstrap.computeIfAbsent(n.instanceId.toString(), k -> new ArrayList<>()).add(n.address());
            }
        }
        bootstrap.values().forEach(l -> l.sort(String::compareTo));
        doc.put("bootstrapServers", bootstrap);
        try {
            Path tmp = settings.stateDir().resolve("status.json.tmp");
            json.writeValue(tmp.toFile(), doc);
            Files.move(tmp, settings.stateDir().resolve("status.json"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("could not write status: {}", e.toString());
        }
    }

    public Optional<BrokerStatus> node(String ec2InstanceId) {
        return status().stream().filter(s -> ec2InstanceId.equals(s.ec2InstanceId())).findFirst();
    }

    /** Stops every broker this runner started. */
    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        stopAll(nodes.values());
        nodes.clear();
        writeStatus(Map.of());
    }

}

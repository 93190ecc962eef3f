package dev.keel.broker.agent;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import software.amazon.awssdk.services.ec2.Ec2Client;

import dev.keel.broker.agent.access.AccessIngest;
import dev.keel.broker.agent.access.AccessReconciler;
import dev.keel.broker.agent.access.AccessSchedule;

/**
 * The broker agent. {@code java -jar keel-broker-agent-all.jar [--spec <file>] [--local <overrides.json>]}
 *
 * <ol>
 *   <li>reads the node spec (the file, else EC2 user data through IMDSv2) and validates it: a bad spec stops here
 *       with exit code 2 and a message naming the field;</li>
 *   <li>checks the spec's broker version can run its WAL type ({@link WalForms}) and, in the image, that it is the
 *       image's AutoMQ version ({@code KEEL_AUTOMQ_VERSION});</li>
 *   <li>finds itself and its peers (IMDS + DescribeInstances, or the local overrides), waiting for the
 *       controllers' addresses;</li>
 *   <li>prepares the WAL; with secured listeners, gets the broker's certificate for a key made here
 *       ({@link BrokerCertificates}) before anything starts;</li>
 *   <li>renders the broker config, starts the broker and keeps it running;</li>
 *   <li>reports health and metrics every 10 s, drains the broker's partitions when the control plane asks, renews
 *       the certificate before it expires ({@link CertificateRotation}); on SIGTERM stops the broker and exits;</li>
 *   <li>while its broker leads the KRaft quorum, reconciles Kafka users, ACLs and topics with the control plane's
 *       desired access every 10 s ({@link AccessSchedule}).</li>
 * </ol>
 */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    static final String AUTOMQ_HOME = "/opt/automq/kafka";

    private Main() {
    }

    public static String agentVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    public static void main(String[] args) {
        Map<String, String> opts = options(args);
        try {
            run(opts);
        } catch (SpecException e) {
            System.err.println("keel-broker-agent: node spec refused: " + e.getMessage());
            LOG.error("node spec refused: {}", e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            LOG.error("agent failed: {}", e.toString(), e);
            System.exit(1);
        }
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: [--spec <node-spec.json>] [--local <overrides.json>] "
                        + "[--work-dir <dir>]; bad argument '" + a + "'");
            }
            opts.put(a.substring(2), args[++i]);
        }
        return opts;
    }

    static void run(Map<String, String> opts) throws Exception {
        LocalOverrides local = opts.containsKey("local") ? LocalOverrides.read(Path.of(opts.get("local"))) : null;
        Ec2Metadata imds = local == null ? Ec2Metadata.standard() : null;
        String specJson = opts.containsKey("spec") ? Files.readString(Path.of(opts.get("spec")), StandardCharsets.UTF_8)
                : BootUserData.nodeSpec(imds.userData());
        NodeSpec spec = NodeSpec.parse(specJson);
        List<String> unknown = NodeSpec.unknownKeys(specJson);
        if (!unknown.isEmpty()) {
            LOG.warn("node spec keys this agent does not know (ignored): {}", unknown);
        }
        WalForms.check(spec.walType(), spec.version());
        String imageVersion = System.getenv("KEEL_AUTOMQ_VERSION");
        if (local == null && imageVersion != null && !imageVersion.equals(spec.brokerVersion())) {
            throw new SpecException("brokerVersion", "the spec asks for AutoMQ " + spec.brokerVersion()
                    + " but this image carries AutoMQ " + imageVersion);
        }
        LOG.info("node spec: instance {} ({}), AutoMQ {}, WAL {}, {} brokers", spec.instanceId(), spec.instanceName(),
                spec.brokerVersion(), spec.walType(), spec.brokerCount());
        if (local != null && local.standIn() != null) {
            String banner = local.standIn() + " standing in for AutoMQ " + spec.brokerVersion()
                    + "; data is on local disk, not S3";
            LOG.warn("STAND-IN BROKER: {}", banner);
            System.out.println("STAND-IN BROKER: " + banner);
        }

        Path workDir = Path.of(local != null ? local.workDir() : opts.getOrDefault("work-dir", "/var/lib/keel-agent"));
        Files.createDirectories(workDir);

        NodeIdentity self;
        PeerDirectory peers;
        WalPreparer wal;
        BrokerConfigRenderer.Options renderOptions;
        if (local != null) {
            self = new NodeIdentity(local.nodeId(), local.zone(), local.address(), local.ec2InstanceId());
            peers = PeerDirectory.fixed(local.peers());
            wal = new DryRunWalPreparer();
            Map<String, String> extra = local.extraProperties() == null ? Map.of() : local.extraProperties();
            renderOptions = new BrokerConfigRenderer.Options(local.address(), local.logDir(), local.standIn(), extra,
                    null);
        } else {
            Ec2Client ec2 = Ec2Client.builder().region(software.amazon.awssdk.regions.Region.of(spec.region())).build();
            peers = new Ec2PeerDirectory(ec2, spec);
            self = imds.identity(spec, peers);
            wal = WalPreparer.forEc2(spec);
            renderOptions = BrokerConfigRenderer.Options.ec2();
        }
        LOG.info("this node: id {}, zone {}, address {}, EC2 instance {}", self.nodeId(), self.zone(),
                self.privateAddress(), self.ec2InstanceId());

        WalPreparer.PreparedWal prepared = wal.prepare(spec, self);
        LOG.info("WAL: {}", prepared.description());

        BrokerCertificates certificates = null;
        if (spec.secured()) {
            // Only the node's own addresses, which the control plane checks: on EC2 its private address and name,
            // locally the address it advertises (127.0.0.1).
            List<String> names = local != null ? List.of(self.privateAddress()) : ec2Names(self, imds);
            certificates = new BrokerCertificates(spec, self.nodeId(), names, workDir.resolve("tls"),
                    Clock.systemUTC());
            certificates.obtain();
            renderOptions = renderOptions.withTls(certificates.files());
        }

        String config = renderWhenPeersKnown(spec, self, peers, prepared, renderOptions, Duration.ofMinutes(15));
        Path configFile = workDir.resolve("server.properties");
        Files.writeString(configFile, config, StandardCharsets.UTF_8);
        LOG.info("broker config written to {}", configFile);

        int jmxPort = local != null ? local.jmxPort() : 9999;
        Map<String, String> placeholders = Map.of("{config}", configFile.toString(),
                "{clusterId}", BrokerConfigRenderer.clusterId(spec.instanceId()),
                "{nodeId}", Integer.toString(self.nodeId()), "{jmxPort}", Integer.toString(jmxPort));
        Map<String, String> env = new LinkedHashMap<>();
        List<String> command;
        if (local != null) {
            command = substitute(local.brokerCommand(), placeholders);
            if (local.formatCommand() != null && !local.formatCommand().isEmpty()) {
                format(substitute(local.formatCommand(), placeholders), workDir.resolve("format.log").toFile());
            }
        } else {
            // AutoMQ formats the storage itself on first start when cluster.id is set.
            command = List.of(AUTOMQ_HOME + "/bin/kafka-server-start.sh", configFile.toString());
            env.put("JMX_PORT", Integer.toString(jmxPort));
            env.put("KAFKA_JMX_OPTS", jmxOpts());
        }
        Duration stopTimeout = Duration.ofSeconds(local != null && local.stopTimeoutSeconds() != null
                ? local.stopTimeoutSeconds() : 60);
        BrokerProcess broker = new BrokerProcess(command, env, workDir.resolve("broker.log").toFile(),
                Duration.ofSeconds(30), Duration.ofSeconds(60), stopTimeout);
        Peer me = peers.peers().stream().filter(p -> p.nodeId() == self.nodeId()).findFirst()
                .map(p -> new Peer(p.nodeId(), self.privateAddress(), p.listenerPort(), p.controllerPort(),
                        p.internalPort(), p.zone()))
                .orElse(new Peer(self.nodeId(), self.privateAddress(), spec.listenerPort(), spec.controllerPort(),
                        spec.internalPort(), self.zone()));
        BrokerAdminConnection admin = BrokerAdminConnection.forNode(spec, me,
                certificates == null ? null : certificates.files());
        PartitionDrain drain = new PartitionDrain(self.nodeId(), admin::open);
        Reporter reporter = new Reporter(spec, self,
                new Report.Broker(local != null && local.standIn() != null ? "STAND_IN" : "AUTOMQ",
                        spec.brokerVersion(), local == null ? null : local.standIn()),
                new Report.Endpoint(self.privateAddress(), me.listenerPort(), self.zone(),
                        BrokerConfigRenderer.isController(spec, self.nodeId())),
                new Reporter.Sources(broker::isAlive, broker::restarts, broker::startedAt,
                        new JmxMetricsSource("127.0.0.1", jmxPort), drain),
                workDir.resolve("last-report.json"), Clock.systemUTC());

        int interval = local != null && local.reportIntervalSeconds() != null ? local.reportIntervalSeconds() : 10;
        ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "certificate-rotation");
            t.setDaemon(true);
            return t;
        });
        if (certificates != null) {
            CertificateRotation rotation = new CertificateRotation(certificates, admin, self.nodeId(),
                    BrokerConfigRenderer.isController(spec, self.nodeId()), broker::restart, Clock.systemUTC());
            renewals.scheduleWithFixedDelay(rotation::tick, interval, interval, TimeUnit.SECONDS);
        }
        // Users and ACLs exist only where clients authenticate: topics only on plaintext listeners.
        AccessSchedule access = accessSchedule(spec, self, reporter, admin::open, spec.secured());

        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("SIGTERM: stopping");
            renewals.shutdownNow();
            reporter.close();
            access.close();
            drain.close();
            broker.stop();
            done.countDown();
        }, "agent-shutdown"));
        broker.start();
        reporter.start(Duration.ofSeconds(interval));
        if (spec.ingestToken() != null) {
            access.start(Duration.ofSeconds(interval));
        }
        done.await();
    }

    /** The private address and, when it has one, the private DNS name: what peers and clients in the VPC use. */
    private static List<String> ec2Names(NodeIdentity self, Ec2Metadata imds) throws IOException {
        String hostname = imds.localHostname();
        return hostname == null || hostname.isBlank() ? List.of(self.privateAddress())
                : List.of(self.privateAddress(), hostname.trim());
    }

    /** Reconciles Kafka users, ACLs and topics while this node's broker leads the KRaft quorum. */
    static AccessSchedule accessSchedule(NodeSpec spec, NodeIdentity self, Reporter reporter, Supplier<Admin> admins,
                                         boolean usersAndAcls) {
        AccessIngest ingest = new AccessIngest(spec.ingestUrl(), spec.instanceId().toString(), spec.ingestToken());
        return new AccessSchedule(self.nodeId(), reporter::quorumLeaderId,
                new AccessReconciler(admins, ingest, usersAndAcls));
    }

    static String renderWhenPeersKnown(NodeSpec spec, NodeIdentity self, PeerDirectory peers,
                                       WalPreparer.PreparedWal wal, BrokerConfigRenderer.Options options,
                                       Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            try {
                return BrokerConfigRenderer.render(spec, self, peers.peers(), wal.path(), options);
            } catch (BrokerConfigRenderer.PeersNotReady e) {
                if (Instant.now().isAfter(deadline)) {
                    throw e;
                }
                LOG.info("waiting for peers: {}", e.getMessage());
                TimeUnit.SECONDS.sleep(5);
            }
        }
    }

    static String jmxOpts() {
        return "-Dcom.sun.management.jmxremote -Dcom.sun.management.jmxremote.authenticate=false"
                + " -Dcom.sun.management.jmxremote.ssl=false -Dcom.sun.management.jmxremote.host=127.0.0.1"
                + " -Djava.rmi.server.hostname=127.0.0.1 -Dcom.sun.management.jmxremote.local.only=true";
    }

    static List<String> substitute(List<String> command, Map<String, String> values) {
        List<String> out = new ArrayList<>();
        for (String part : command) {
            String s = part;
            for (var e : values.entrySet()) {
                s = s.replace(e.getKey(), e.getValue());
            }
            out.add(s);
        }
        return out;
    }

    private static void format(List<String> command, File log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("storage format failed (see " + log + ")");
        }
        LOG.info("storage formatted");
    }
}

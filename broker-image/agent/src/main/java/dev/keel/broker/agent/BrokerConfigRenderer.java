package dev.keel.broker.agent;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Renders the AutoMQ broker configuration (a properties file) for one node. Pure: the same inputs give the same
 * bytes (golden-file tested). Credentials are never written: AutoMQ's S3 client falls back to the instance role
 * (1.2.0-1.4.1: {@code AwsObjectStorage.newCredentialsProviderChain} appends {@code InstanceProfileCredentialsProvider};
 * 1.5.0+: {@code credentialsProviders0} includes {@code DefaultCredentialsProvider}).
 *
 * <p>Keys and their upstream definitions ({@code core/src/main/java/kafka/automq/AutoMQConfig.java}):
 * {@code elasticstream.enable}, {@code s3.data.buckets}, {@code s3.ops.buckets}, {@code s3.wal.path},
 * {@code s3.telemetry.metrics.exporter.uri}; auto-balancing {@code autobalancer.controller.enable}; KRaft keys are
 * Apache Kafka's.
 */
public final class BrokerConfigRenderer {

    /** The KRaft controllers: the first {@value} nodes (round-robin placement puts one per zone with 3 zones). */
    public static final int CONTROLLERS = 3;
    public static final String WAL_MOUNT_ROOT = "/mnt/keel-wal";
    /** gp3 baseline: 3,000 IOPS and 125 MiB/s (the provisioner creates plain gp3 volumes). */
    public static final int EBS_IOPS = 3000;
    public static final long EBS_BANDWIDTH = 125L * 1024 * 1024;
    public static final int EBS_IODEPTH = 8;

    /** The client listener's one SASL mechanism. */
    public static final String SCRAM = "SCRAM-SHA-512";
    /** How long a SCRAM session lives before re-authenticating: a deleted user's connections end within it. */
    public static final int REAUTH_MS = 30_000;
    /** The TLS listeners of a node, by their {@code listener.name.<name>.} prefix. */
    public static final String CLIENT = "CLIENT";
    public static final String INTERNAL = "INTERNAL";
    public static final String CONTROLLER = "CONTROLLER";

    /**
     * How the node is laid out on its machine (EC2 defaults, or the local runner's). {@code tls}: the keystore and
     * truststore the secured listeners use (null for plaintext listeners).
     */
    public record Options(String bindHost, String logDir, String standIn, Map<String, String> extraProperties,
                          BrokerTlsFiles tls) {
        public static Options ec2() {
            return new Options("0.0.0.0", "/data/kafka/kraft-logs", null, Map.of(), null);
        }

        public Options withTls(BrokerTlsFiles files) {
            return new Options(bindHost, logDir, standIn, extraProperties, files);
        }
    }

    private BrokerConfigRenderer() {
    }

    /**
     * Kafka cluster id derived from the instance id (22-char URL-safe base64 of the UUID, as
     * kafka-storage uses). Like Kafka's own {@code Uuid.randomUuid()}, never one starting with
     * {@code -}, which the storage tool's command line takes for an option: such an id has the top
     * bit of its first byte cleared, deterministically, so every node derives the same one.
     */
    public static String clusterId(UUID instanceId) {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putLong(instanceId.getMostSignificantBits()).putLong(instanceId.getLeastSignificantBits());
        String id = Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
        if (id.startsWith("-")) {
            b.put(0, (byte) (b.get(0) & 0x7f));
            id = Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
        }
        return id;
    }

    public static int controllerCount(NodeSpec spec) {
        return Math.min(CONTROLLERS, spec.brokerCount());
    }

    public static boolean isController(NodeSpec spec, int nodeId) {
        return nodeId < controllerCount(spec);
    }

    /** The WAL path for a FSWAL node: its directory on the mount of file system {@code nodeId % walFileSystems}. */
    public static String fsWalFile(NodeSpec spec, int nodeId) {
        return WAL_MOUNT_ROOT + "/fs-" + fsIndex(spec, nodeId) + "/node-" + nodeId + "/wal";
    }

    public static int fsIndex(NodeSpec spec, int nodeId) {
        return nodeId % spec.walFileSystems();
    }

    /** Renders the file. {@code walPath} is the prepared device (EBS) or file (FSWAL); ignored for S3. */
    public static String render(NodeSpec spec, NodeIdentity self, List<Peer> peers, String walPath, Options options) {
        WalForms.Form form = WalForms.check(spec.walType(), spec.version());
        if (self.nodeId() >= spec.brokerCount()) {
            throw new SpecException("nodeId", "node " + self.nodeId() + " is outside brokerCount " + spec.brokerCount());
        }
        boolean controller = isController(spec, self.nodeId());
        List<Peer> voters = voters(spec, peers);
        Peer me = peers.stream().filter(p -> p.nodeId() == self.nodeId()).findFirst().orElse(
                new Peer(self.nodeId(), self.privateAddress(), spec.listenerPort(), spec.controllerPort(),
                        spec.internalPort(), self.zone()));

        Lines out = new Lines();
        out.comment("Rendered by keel-broker-agent for instance " + spec.instanceId() + " (" + spec.instanceName()
                + "), node " + self.nodeId() + ". Do not edit: re-rendered at every start.");
        out.comment("Upstream: AutoMQ " + spec.version() + "; WAL " + spec.walType() + " (" + form + ").");
        if (spec.secured() && options.tls() == null) {
            throw new IllegalStateException("listenerSecurity SASL_SSL needs the broker's keystore and truststore");
        }
        out.comment(spec.secured()
                ? "No AWS credentials here: S3 access uses the instance role through the default provider chain. The"
                        + " keystore password is this start's own, random."
                : "No credentials here: S3 access uses the instance role through the default provider chain.");
        if (options.standIn() != null) {
            out.comment("STAND-IN: " + options.standIn() + " runs this file; it ignores the AutoMQ-only keys.");
        }
        out.blank();
        out.comment("KRaft");
        out.put("cluster.id", clusterId(spec.instanceId()));
        out.put("node.id", Integer.toString(self.nodeId()));
        out.put("process.roles", controller ? "broker,controller" : "broker");
        // Static voters: accepted by every AutoMQ 1.x (Kafka 3.x base) and by Kafka 4.x. The dynamic form
        // (controller.quorum.bootstrap.servers, KIP-853) needs a formatted initial-controller set instead.
        out.put("controller.quorum.voters", voters.stream()
                .map(p -> p.nodeId() + "@" + p.host() + ":" + p.controllerPort()).collect(Collectors.joining(",")));
        out.put("controller.listener.names", CONTROLLER);
        if (spec.secured()) {
            secureListeners(out, self, me, controller, options);
        } else {
            plaintextListeners(out, self, me, controller, options);
        }
        out.put("broker.rack", self.zone());
        out.put("log.dirs", options.logDir());
        // AutoMQ keeps one replica per partition (durability is S3's); upstream's server.properties ships these at 1.
        out.put("offsets.topic.replication.factor", "1");
        out.put("transaction.state.log.replication.factor", "1");
        out.put("transaction.state.log.min.isr", "1");
        out.blank();
        if (spec.secured()) {
            security(out, spec, options.tls());
        }

        out.comment("AutoMQ storage (AutoMQConfig). Bucket ids: 0 = data, 1 = ops.");
        out.put("elasticstream.enable", "true");
        out.put("s3.data.buckets", bucketUri(0, spec.dataBucket(), spec));
        out.put("s3.ops.buckets", bucketUri(1, spec.opsBucket(), spec));
        switch (spec.walType()) {
            case S3 -> out.comment("S3 WAL: WAL objects in the data bucket. Accepted by AutoMQ 1.2.0 and later.");
            case EBS -> out.comment("Block-device WAL on the node's gp3 volume (gp3 baseline IOPS/bandwidth). "
                    + "Accepted by AutoMQ 1.2.0-1.4.x only (removed from open source in 1.5.0).");
            case FSWAL -> out.comment("File WAL on the node's directory of the NFSv4.1 mount of FSx for ONTAP file system "
                    + fsIndex(spec, self.nodeId()) + ". Accepted by AutoMQ 1.2.0-1.4.x only (file WAL removed in 1.5.0).");
        }
        out.put("s3.wal.path", walUri(spec, self, walPath));
        out.blank();

        out.comment("Self-balancing and metrics");
        out.put("autobalancer.controller.enable", "true");
        out.put("s3.telemetry.metrics.exporter.uri", "prometheus://?host=127.0.0.1&port=" + spec.metricsPort());
        if (!options.extraProperties().isEmpty()) {
            out.blank();
            out.comment("Local overrides");
            options.extraProperties().entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> out.put(e.getKey(), e.getValue()));
        }
        return out.toString();
    }

    private static void plaintextListeners(Lines out, NodeIdentity self, Peer me, boolean controller,
                                           Options options) {
        out.put("inter.broker.listener.name", "PLAINTEXT");
        out.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        String listeners = "PLAINTEXT://" + options.bindHost() + ":" + me.listenerPort();
        if (controller) {
            listeners += ",CONTROLLER://" + options.bindHost() + ":" + me.controllerPort();
        }
        out.put("listeners", listeners);
        out.put("advertised.listeners", "PLAINTEXT://" + self.privateAddress() + ":" + me.listenerPort());
    }

    private static void secureListeners(Lines out, NodeIdentity self, Peer me, boolean controller, Options options) {
        out.put("inter.broker.listener.name", INTERNAL);
        out.put("listener.security.protocol.map", CLIENT + ":SASL_SSL," + INTERNAL + ":SSL," + CONTROLLER + ":SSL");
        String listeners = CLIENT + "://" + options.bindHost() + ":" + me.listenerPort() + "," + INTERNAL + "://"
                + options.bindHost() + ":" + me.internalPort();
        if (controller) {
            listeners += "," + CONTROLLER + "://" + options.bindHost() + ":" + me.controllerPort();
        }
        out.put("listeners", listeners);
        out.put("advertised.listeners", CLIENT + "://" + self.privateAddress() + ":" + me.listenerPort() + ","
                + INTERNAL + "://" + self.privateAddress() + ":" + me.internalPort());
    }

    /**
     * Clients on SCRAM-SHA-512 over TLS; brokers and controllers on mutual TLS, where the instance's broker
     * certificate ({@code CN=keel-brokers.<instanceId>}, the same on every node) is the one super user. Every ACL
     * decision is the StandardAuthorizer's (KRaft), denying what no ACL allows. The keystore is named for every
     * listener, also the controller listener of a node that only connects to it: that is its client certificate.
     */
    private static void security(Lines out, NodeSpec spec, BrokerTlsFiles tls) {
        out.comment("TLS: the key was generated on this machine; the instance's CA signed its certificate.");
        out.comment("Rotation re-sets listener.name.<listener>.ssl.keystore.location, and the broker re-reads the file.");
        for (String listener : List.of(CLIENT, INTERNAL, CONTROLLER)) {
            String prefix = prefix(listener);
            out.put(prefix + "ssl.keystore.type", "PKCS12");
            out.put(prefix + "ssl.keystore.location", tls.keystore().toString());
            out.put(prefix + "ssl.keystore.password", tls.keystorePassword());
        }
        out.put("ssl.truststore.type", "PEM");
        out.put("ssl.truststore.location", tls.truststore().toString());
        out.put("ssl.endpoint.identification.algorithm", "https");
        out.put(prefix(INTERNAL) + "ssl.client.auth", "required");
        out.put(prefix(CONTROLLER) + "ssl.client.auth", "required");
        out.comment("Clients: SCRAM-SHA-512 only, re-authenticated every " + REAUTH_MS / 1000 + " s.");
        String scram = prefix(CLIENT) + SCRAM.toLowerCase(java.util.Locale.ROOT) + ".";
        out.put(prefix(CLIENT) + "sasl.enabled.mechanisms", SCRAM);
        out.put(scram + "sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        out.put(scram + "connections.max.reauth.ms", Integer.toString(REAUTH_MS));
        out.comment("ACLs");
        out.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        out.put("allow.everyone.if.no.acl.found", "false");
        out.put("super.users", "User:" + brokerPrincipal(spec.instanceId()));
        out.blank();
    }

    /** The subject every broker certificate of the instance carries: the brokers' principal on mutual TLS. */
    public static String brokerPrincipal(UUID instanceId) {
        return "CN=keel-brokers." + instanceId;
    }

    /** The TLS listeners a node serves: all three on a controller, the client and inter-broker ones on the others. */
    public static List<String> tlsListeners(boolean controller) {
        return controller ? List.of(CLIENT, INTERNAL, CONTROLLER) : List.of(CLIENT, INTERNAL);
    }

    /** {@code listener.name.<listener, lower case>.} */
    public static String prefix(String listener) {
        return "listener.name." + listener.toLowerCase(java.util.Locale.ROOT) + ".";
    }

    /** {@code <id>@s3://<bucket>?region=<r>[&endpoint=<url>][&pathStyle=true]} (BucketURI / IdURI form). */
    public static String bucketUri(int id, String bucket, NodeSpec spec) {
        StringBuilder b = new StringBuilder().append(id).append("@s3://").append(bucket).append("?region=")
                .append(spec.region());
        if (spec.s3Endpoint() != null) {
            b.append("&endpoint=").append(spec.s3Endpoint());
        }
        if (spec.s3PathStyle()) {
            b.append("&pathStyle=true");
        }
        return b.toString();
    }

    static String walUri(NodeSpec spec, NodeIdentity self, String walPath) {
        return switch (spec.walType()) {
            case S3 -> bucketUri(0, spec.dataBucket(), spec);
            case EBS -> {
                String device = walPath != null ? walPath : spec.walDevice();
                yield "0@file://" + device + "?capacity=" + spec.walCapacityBytes() + "&iops=" + EBS_IOPS
                        + "&iodepth=" + EBS_IODEPTH + "&iobandwidth=" + EBS_BANDWIDTH;
            }
            case FSWAL -> {
                String file = walPath != null ? walPath : fsWalFile(spec, self.nodeId());
                yield "0@file://" + file + "?capacity=" + spec.walCapacityBytes();
            }
        };
    }

    static List<Peer> voters(NodeSpec spec, List<Peer> peers) {
        int count = controllerCount(spec);
        Map<Integer, Peer> byId = new LinkedHashMap<>();
        for (Peer p : peers) {
            byId.putIfAbsent(p.nodeId(), p);
        }
        List<Peer> voters = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            Peer p = byId.get(id);
            if (p == null) {
                missing.add(id);
            } else {
                voters.add(p);
            }
        }
        if (!missing.isEmpty()) {
            throw new PeersNotReady("controller node(s) " + missing + " not found among the instance's brokers yet");
        }
        voters.sort(Comparator.comparingInt(Peer::nodeId));
        return voters;
    }

    /** The controllers' addresses are not known yet (instances still launching): retry later. */
    public static final class PeersNotReady extends RuntimeException {
        public PeersNotReady(String message) {
            super(message);
        }
    }

    private static final class Lines {
        private final StringBuilder sb = new StringBuilder();

        void comment(String text) {
            sb.append("# ").append(text).append('\n');
        }

        void blank() {
            sb.append('\n');
        }

        void put(String key, String value) {
            sb.append(key).append('=').append(escape(value)).append('\n');
        }

        private static String escape(String value) {
            // java.util.Properties: backslashes and leading spaces need escaping; none of our values should have them.
            return value.replace("\\", "\\\\");
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}

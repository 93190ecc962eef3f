package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files in src/test/resources/golden. To accept a deliberate change: run with -Dgolden.update=true, review the
 * diff, commit.
 */
class BrokerConfigRendererTest {
    static final List<String> ONE_ZONE = List.of("us-east-1a");
    static final List<String> THREE_ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");

    /** The keystore password is each start's own: a golden file shows where it goes, never one. */
    static final BrokerTlsFiles TLS = BrokerTlsFiles.in(Path.of("/var/lib/keel-agent/tls"), "<keystore-password>");

    record Case(String name, NodeSpec spec, List<String> zones, int node, String walPath) {
        String render() {
            List<Peer> peers = Specs.peers(spec, zones);
            BrokerConfigRenderer.Options options = BrokerConfigRenderer.Options.ec2();
            return BrokerConfigRenderer.render(spec, Specs.identity(peers, node), peers, walPath,
                    spec.secured() ? options.withTls(TLS) : options);
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("ebs-1zone-node0", Specs.ebs1Zone(), ONE_ZONE, 0, "/dev/nvme1n1"),
                new Case("s3-3zones-node1", Specs.s3ThreeZones(), THREE_ZONES, 1, null),
                new Case("s3-3zones-node4", Specs.s3ThreeZones(), THREE_ZONES, 4, null),
                new Case("fswal-3zones-2fs-node3", Specs.fswal3Zones2Fs(), THREE_ZONES, 3, null),
                new Case("sasl-ssl-ebs-1zone-node0", Specs.ebs1Zone(Specs.SASL_SSL), ONE_ZONE, 0, "/dev/nvme1n1"),
                new Case("sasl-ssl-s3-3zones-node4", Specs.s3ThreeZones(Specs.SASL_SSL), THREE_ZONES, 4, null),
                new Case("sasl-ssl-fswal-3zones-2fs-node1", Specs.fswal3Zones2Fs(Specs.SASL_SSL), THREE_ZONES, 1,
                        null));
    }

    static Stream<Arguments> named() {
        return cases().map(c -> Arguments.of(c.name(), c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("named")
    void matchesGoldenFile(String name, Case c) throws IOException {
        String rendered = c.render();
        Path golden = Path.of("src/test/resources/golden", name + ".properties");
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, rendered, StandardCharsets.UTF_8);
        }
        assertThat(golden).exists();
        assertThat(rendered).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("named")
    void everyS3KeyParsesWithTheStrictUpstreamChecker(String name, Case c) throws IOException {
        Properties p = load(c.render());
        var data = UpstreamUriChecker.check(p.getProperty("s3.data.buckets"), UpstreamUriChecker.Kind.BUCKET);
        var ops = UpstreamUriChecker.check(p.getProperty("s3.ops.buckets"), UpstreamUriChecker.Kind.BUCKET);
        var wal = UpstreamUriChecker.check(p.getProperty("s3.wal.path"), UpstreamUriChecker.Kind.WAL);
        assertThat(data.id()).isZero();
        assertThat(ops.id()).isEqualTo(1);
        assertThat(data.bucketOrPath()).isEqualTo(c.spec().dataBucket());
        assertThat(ops.bucketOrPath()).isEqualTo(c.spec().opsBucket());
        assertThat(data.query()).containsEntry("region", "us-east-1");
        switch (c.spec().walType()) {
            case S3 -> assertThat(wal.scheme()).isEqualTo("s3");
            case EBS -> assertThat(wal.bucketOrPath()).startsWith("/dev/");
            case FSWAL -> assertThat(wal.bucketOrPath()).startsWith("/mnt/keel-wal/fs-");
        }
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("s3.") && p.getProperty(key).contains("@")) {
                assertThat(p.getProperty(key)).doesNotContain("accessKey").doesNotContain("secretKey");
            }
        }
    }

    @Test
    void theCheckerCatchesDeviations() {
        String ok = "0@s3://keel-data?region=us-east-1";
        assertThat(UpstreamUriChecker.check(ok, UpstreamUriChecker.Kind.BUCKET).id()).isZero();
        for (String bad : List.of("s3://keel-data?region=us-east-1", "0@s3://keel-data", "0@s3://keel-data?region=",
                "0@s3://keel-data?region=us-east-1&pathstyle=true", "0@s3://keel-data/prefix?region=us-east-1",
                "0@gs://keel-data?region=us-east-1", "0@s3://keel-data?region=us-east-1&accessKey=AKIA",
                "0@s3://Keel_Data?region=us-east-1", "0@s3://keel-data?region=us-east-1&pathStyle=yes")) {
            assertThatThrownBy(() -> UpstreamUriChecker.check(bad, UpstreamUriChecker.Kind.BUCKET))
                    .as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        for (String bad : List.of("0@file:///dev/nvme1n1", "0@file://dev/nvme1n1?capacity=1",
                "0@file:///dev/nvme1n1?capacity=2g", "0@file:///dev/nvme1n1?capacity=1&depth=8",
                "0@s3://keel-data?region=us-east-1&capacity=1")) {
            assertThatThrownBy(() -> UpstreamUriChecker.check(bad, UpstreamUriChecker.Kind.WAL))
                    .as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void endpointAndPathStyleForEmulators() throws IOException {
        NodeSpec spec = NodeSpec.parse(Specs.json("S3", "1.7.3", 1,
                ",\"s3Endpoint\":\"http://127.0.0.1:4566\",\"s3PathStyle\":true"));
        List<Peer> peers = Specs.peers(spec, ONE_ZONE);
        Properties p = load(BrokerConfigRenderer.render(spec, Specs.identity(peers, 0), peers, null,
                BrokerConfigRenderer.Options.ec2()));
        var parsed = UpstreamUriChecker.check(p.getProperty("s3.data.buckets"), UpstreamUriChecker.Kind.BUCKET);
        assertThat(parsed.query()).containsEntry("endpoint", "http://127.0.0.1:4566").containsEntry("pathStyle", "true");
        UpstreamUriChecker.check(p.getProperty("s3.wal.path"), UpstreamUriChecker.Kind.WAL);
        assertThat(p.getProperty("process.roles")).isEqualTo("broker,controller");
        assertThat(p.getProperty("controller.quorum.voters")).isEqualTo("0@10.0.1.10:9093");
    }

    @Test
    void controllersAreTheFirstThreeNodesOnePerZone() throws IOException {
        NodeSpec spec = Specs.s3ThreeZones();
        List<Peer> peers = Specs.peers(spec, THREE_ZONES);
        for (int n = 0; n < spec.brokerCount(); n++) {
            Properties p = load(BrokerConfigRenderer.render(spec, Specs.identity(peers, n), peers, null,
                    BrokerConfigRenderer.Options.ec2()));
            assertThat(p.getProperty("process.roles")).isEqualTo(n < 3 ? "broker,controller" : "broker");
            assertThat(p.getProperty("controller.quorum.voters"))
                    .isEqualTo("0@10.0.1.10:9093,1@10.0.2.11:9093,2@10.0.3.12:9093");
            assertThat(p.getProperty("broker.rack")).isEqualTo(THREE_ZONES.get(n % 3));
            assertThat(p.getProperty("listeners").contains("CONTROLLER")).isEqualTo(n < 3);
        }
        assertThat(peers.subList(0, 3).stream().map(Peer::zone).distinct()).hasSize(3);
    }

    @Test
    void waitsForControllerAddresses() {
        NodeSpec spec = Specs.s3ThreeZones();
        List<Peer> peers = Specs.peers(spec, THREE_ZONES);
        List<Peer> partial = List.of(peers.get(0), peers.get(3));
        assertThatThrownBy(() -> BrokerConfigRenderer.render(spec, Specs.identity(peers, 3), partial, null,
                BrokerConfigRenderer.Options.ec2()))
                .isInstanceOf(BrokerConfigRenderer.PeersNotReady.class).hasMessageContaining("[1, 2]");
    }

    @Test
    void localOptionsAddOverridesAndAStandInNote() throws IOException {
        NodeSpec spec = Specs.s3ThreeZones();
        List<Peer> peers = Specs.peers(spec, THREE_ZONES);
        String out = BrokerConfigRenderer.render(spec, Specs.identity(peers, 0), peers, null,
                new BrokerConfigRenderer.Options("127.0.0.1", "/tmp/x", "Apache Kafka 4.4.0",
                        Map.of("default.replication.factor", "3"), null));
        assertThat(out).contains("# STAND-IN: Apache Kafka 4.4.0");
        assertThat(load(out).getProperty("default.replication.factor")).isEqualTo("3");
        assertThat(load(out).getProperty("elasticstream.enable")).isEqualTo("true");
    }

    @Test
    void clusterIdIsKafkasFormat() {
        String id = BrokerConfigRenderer.clusterId(UUID.fromString(Specs.INSTANCE));
        assertThat(id).hasSize(22).matches("[A-Za-z0-9_-]+");
    }

    @Test
    void aClusterIdNeverStartsWithADashWhichTheStorageToolTakesForAnOption() {
        UUID dashed = UUID.fromString("f8254727-33fc-4b9f-a98e-a69bceb735f5");
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(16).putLong(dashed.getMostSignificantBits())
                .putLong(dashed.getLeastSignificantBits());
        String plain = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
        assertThat(plain).startsWith("-");

        String id = BrokerConfigRenderer.clusterId(dashed);

        assertThat(id).hasSize(22).doesNotStartWith("-").isEqualTo(BrokerConfigRenderer.clusterId(dashed));
        assertThat(id.substring(1)).as("only the first character changes").isEqualTo(plain.substring(1));
    }

    @Test
    void neverWritesCredentials() {
        cases().forEach(c -> assertThat(c.render().toLowerCase())
                .doesNotContain("secret").doesNotContain("accesskey").doesNotContain("s3cr3t-token"));
        cases().filter(c -> !c.spec().secured()).forEach(c -> assertThat(c.render().toLowerCase())
                .doesNotContain("password"));
    }

    @Test
    void theOnlyPasswordOfASecuredNodeIsTheKeystoresItIsGiven() throws IOException {
        for (Case c : cases().filter(c -> c.spec().secured()).toList()) {
            Properties p = load(c.render());
            assertThat(p.stringPropertyNames().stream().filter(k -> k.contains("password")).toList())
                    .as(c.name()).containsExactlyInAnyOrder("listener.name.client.ssl.keystore.password",
                            "listener.name.internal.ssl.keystore.password",
                            "listener.name.controller.ssl.keystore.password");
            p.stringPropertyNames().stream().filter(k -> k.contains("password"))
                    .forEach(k -> assertThat(p.getProperty(k)).isEqualTo(TLS.keystorePassword()));
        }
    }

    @Test
    void aSecuredNodeServesClientsOnScramOverTlsAndPeersOnMutualTls() throws IOException {
        NodeSpec spec = Specs.s3ThreeZones(Specs.SASL_SSL);
        List<Peer> peers = Specs.peers(spec, THREE_ZONES);
        for (int node : new int[]{1, 4}) {
            Properties p = load(BrokerConfigRenderer.render(spec, Specs.identity(peers, node), peers, null,
                    BrokerConfigRenderer.Options.ec2().withTls(TLS)));
            String host = peers.get(node).host();
            assertThat(p.getProperty("listener.security.protocol.map"))
                    .isEqualTo("CLIENT:SASL_SSL,INTERNAL:SSL,CONTROLLER:SSL");
            assertThat(p.getProperty("listeners")).isEqualTo("CLIENT://0.0.0.0:9092,INTERNAL://0.0.0.0:9094"
                    + (node < 3 ? ",CONTROLLER://0.0.0.0:9093" : ""));
            assertThat(p.getProperty("advertised.listeners"))
                    .isEqualTo("CLIENT://" + host + ":9092,INTERNAL://" + host + ":9094");
            assertThat(p.getProperty("inter.broker.listener.name")).isEqualTo("INTERNAL");
            assertThat(p.getProperty("listener.name.client.sasl.enabled.mechanisms")).isEqualTo("SCRAM-SHA-512");
            assertThat(p.getProperty("listener.name.client.scram-sha-512.connections.max.reauth.ms"))
                    .isEqualTo("30000");
            assertThat(p.getProperty("listener.name.client.ssl.client.auth")).as("clients bring no certificate")
                    .isNull();
            assertThat(p.getProperty("listener.name.internal.ssl.client.auth")).isEqualTo("required");
            assertThat(p.getProperty("listener.name.controller.ssl.client.auth")).isEqualTo("required");
            assertThat(p.getProperty("ssl.endpoint.identification.algorithm")).isEqualTo("https");
            assertThat(p.getProperty("super.users")).isEqualTo("User:CN=keel-brokers." + Specs.INSTANCE);
            assertThat(p.getProperty("allow.everyone.if.no.acl.found")).isEqualTo("false");
        }
    }

    @Test
    void aSecuredNodeCannotRenderWithoutItsKeystore() {
        NodeSpec spec = Specs.s3ThreeZones(Specs.SASL_SSL);
        List<Peer> peers = Specs.peers(spec, THREE_ZONES);
        assertThatThrownBy(() -> BrokerConfigRenderer.render(spec, Specs.identity(peers, 0), peers, null,
                BrokerConfigRenderer.Options.ec2())).hasMessageContaining("keystore");
    }

    static Properties load(String text) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return p;
    }
}

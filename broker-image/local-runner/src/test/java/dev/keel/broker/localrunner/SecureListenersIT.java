package dev.keel.broker.localrunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.math.BigInteger;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three SASL_SSL stand-in brokers started through the agent, against a real LocalStack (KEEL_AWS_ENDPOINT) and an
 * {@link InTestCertificateSigner} in place of the control plane's certificate endpoint (certificates due for renewal a
 * minute after issue, so that the agents renew them during the test). Shows: every broker gets its certificate before it starts and the
 * three form their KRaft quorum over mutual TLS; a SCRAM user with an ACL produces and consumes over TLS verified
 * against the CA; a plaintext client, a TLS client without SASL and a wrong password are refused on the client
 * listener; a renewal reaches the running broker (new handshakes present the new certificate) while a connection
 * opened before stays open and a producer made before keeps producing.
 */
class SecureListenersIT {
    private static final String TEST = "SecureListenersIT";
    private static final String TOKEN = "in-test-instance-token";
    /**
     * Valid for 6 hours from issue, having begun 717 minutes before: a third of 1,077 minutes is left 1 minute after
     * issue, when the agent renews. No certificate expires during the test, and no broker restarts onto its renewed
     * certificate during it either: the first slot (BrokerRestartSchedule) comes about 10 minutes after a renewal.
     */
    private static final Duration AHEAD = Duration.ofHours(6);
    private static final Duration BEHIND = Duration.ofMinutes(717);

    @TempDir
    Path state;
    @TempDir
    Path client;
    @AutoClose
    final EmulatedBrokerInstances instances = new EmulatedBrokerInstances();
    @AutoClose
    InTestCertificateSigner signer;
    LocalRunner runner;

    @Test
    void secureBrokersFormTheirQuorumOverMutualTlsServeOnlyScramClientsAndRenewTheirCertificates() throws Exception {
        UUID instanceId = UUID.randomUUID();
        signer = new InTestCertificateSigner(instanceId, TOKEN, AHEAD, BEHIND);
        String spec = EmulatedBrokerInstances.nodeSpec(instanceId, "secure-it", signer.ingestUrl().toString(),
                ",\"internalPort\":9094,\"listenerSecurity\":\"SASL_SSL\",\"ingestToken\":\"" + TOKEN + "\"");
        List<String> launched = instances.launch(instanceId, spec, 3);
        runner = instances.runLocally(state, instanceId);
        runner.start();

        await("3 secure brokers running", Duration.ofSeconds(120), () -> launched.stream()
                .allMatch(id -> runner.node(id).map(s -> "RUNNING".equals(s.state())).orElse(false)));
        for (int n = 0; n < 3; n++) {
            assertThat(signer.issuedTo(n)).as("node " + n + " has its certificate").isNotEmpty();
            Path keystore = state.resolve(instanceId.toString()).resolve("node-" + n).resolve("tls/broker.p12");
            assertThat(Files.getPosixFilePermissions(keystore)).extracting(Object::toString)
                    .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE");
        }
        String bootstrap = String.join(",", launched.stream().map(instances::addressTag).sorted().toList());
        Path ca = signer.writeCa(client.resolve("ca.pem"));

        // The brokers' own identity on the inter-broker listener: a super user there.
        try (Admin admin = Admin.create(internal(instanceId))) {
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
            var quorum = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS);
            assertThat(quorum.voters()).hasSize(3);
            assertThat(quorum.leaderId()).isBetween(0, 2);
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "alice-secret")))
                    .all().get(30, TimeUnit.SECONDS);
            admin.createAcls(List.of(
                    new AclBinding(new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL),
                            new AccessControlEntry("User:alice", "*", AclOperation.ALL, AclPermissionType.ALLOW)),
                    new AclBinding(new ResourcePattern(ResourceType.GROUP, "it", PatternType.LITERAL),
                            new AccessControlEntry("User:alice", "*", AclOperation.ALL, AclPermissionType.ALLOW))))
                    .all().get(30, TimeUnit.SECONDS);
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 3))).all().get(30, TimeUnit.SECONDS);
        }
        mark("quorum of 3 over mutual TLS; user alice and her ACLs created");

        Map<String, Object> alice = scram(bootstrap, ca, "alice", "alice-secret");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(alice, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("orders", "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            }
            assertThat(OrderRecords.consume(alice, 100)).isEqualTo(100);
            mark("alice produced and consumed 100 records over SASL_SSL");

            refused(bootstrap, ca);

            // Renewal: new handshakes see the new certificate; what was open before stays open.
            int clientPort = Integer.parseInt(bootstrap.split(",")[0].split(":")[1]);
            int node = nodeOnPort(launched, clientPort);
            try (SSLSocket before = handshake(clientPort)) {
                X509Certificate first = (X509Certificate) before.getSession().getPeerCertificates()[0];
                assertThat(first.getSubjectX500Principal().getName()).isEqualTo("CN=keel-brokers." + instanceId);
                int issuedBefore = signer.issuedTo(node).size();
                await("a renewed certificate on node " + node, Duration.ofSeconds(150),
                        () -> signer.issuedTo(node).size() > issuedBefore);
                await("node " + node + " presenting a certificate renewed since", Duration.ofSeconds(60), () -> {
                    try (SSLSocket after = handshake(clientPort)) {
                        BigInteger serial = ((X509Certificate) after.getSession().getPeerCertificates()[0])
                                .getSerialNumber();
                        List<X509Certificate> issued = signer.issuedTo(node);
                        return issued.subList(issuedBefore, issued.size()).stream()
                                .anyMatch(c -> c.getSerialNumber().equals(serial));
                    } catch (Exception e) {
                        return false;
                    }
                });
                before.setSoTimeout(500);
                try (InputStream in = before.getInputStream()) {
                    assertThatThrownBy(in::read).as("the connection opened before the renewal is still open")
                            .isInstanceOf(SocketTimeoutException.class);
                }
            }
            for (int i = 100; i < 200; i++) {
                producer.send(new ProducerRecord<>("orders", "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
            }
            mark("renewed certificate served; the producer made before keeps producing");
        }
    }

    /** Plaintext, TLS without SASL, and a wrong password: none gets an answer from the client listener. */
    private void refused(String bootstrap, Path ca) {
        Map<String, Object> plaintext = new HashMap<>(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        Map<String, Object> tlsOnly = new HashMap<>(plaintext);
        tlsOnly.putAll(Map.of(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca.toString()));
        for (Map<String, Object> config : List.of(plaintext, tlsOnly)) {
            config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 8000);
            config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4000);
            try (Admin admin = Admin.create(config)) {
                assertThatThrownBy(() -> admin.describeCluster().nodes().get(20, TimeUnit.SECONDS))
                        .as(String.valueOf(config.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG)))
                        .isInstanceOf(ExecutionException.class);
            }
        }
        Map<String, Object> wrong = scram(bootstrap, ca, "alice", "not-her-password");
        try (Admin admin = Admin.create(wrong)) {
            assertThatThrownBy(() -> admin.describeCluster().nodes().get(20, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
        mark("plaintext, TLS without SASL and a wrong password refused");
    }

    private int nodeOnPort(List<String> launched, int port) {
        return launched.stream().map(id -> runner.node(id).orElseThrow())
                .filter(s -> s.address().endsWith(":" + port)).findFirst().orElseThrow().nodeId();
    }

    private Map<String, Object> internal(UUID instanceId) throws Exception {
        Path keystore = signer.writeBrokerKeystore(client.resolve("brokers.p12"), "in-test");
        int internalPort = LocalPorts.of(instanceId, 0).internal();
        return Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + internalPort,
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12",
                SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keystore.toString(),
                SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, "in-test",
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, signer.writeCa(client.resolve("ca.pem")).toString());
    }

    private static Map<String, Object> scram(String bootstrap, Path ca, String user, String password) {
        return Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL",
                SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"" + user + "\" password=\"" + password + "\";",
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca.toString(),
                ProducerConfig.ACKS_CONFIG, "all");
    }

    /** A TLS handshake with the client listener, trusting the instance CA only. */
    private SSLSocket handshake(int port) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", signer.ca());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
        socket.startHandshake();
        return socket;
    }

    private static void mark(String what) {
        EmulatedBrokerInstances.mark(TEST, what);
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        EmulatedBrokerInstances.await(TEST, what, timeout, condition);
    }
}

package dev.keel.controlplane.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.bouncycastle.asn1.x509.GeneralName;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;

import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.keel.controlplane.tls.SigningRequestBuilder.csr;
import static dev.keel.controlplane.tls.SigningRequestBuilder.dns;
import static dev.keel.controlplane.tls.SigningRequestBuilder.ec;
import static dev.keel.controlplane.tls.SigningRequestBuilder.ip;
import static dev.keel.controlplane.tls.SigningRequestBuilder.rsa;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Instances' CAs and the brokers' certificates they sign, through the API and the agents' ingest endpoint. */
class BrokerCertificatesApiTest extends ApiTest {

    @Autowired
    InstanceTokens tokens;
    @Autowired
    Instances instances;
    @Autowired
    CertificateAuthorities authorities;
    @Autowired
    JdbcClient jdbc;

    private ApiClient api;
    private String accountId;
    private UUID instanceId;

    @BeforeEach
    void secureInstance() {
        api = api(EDITOR);
        accountId = registerAccount(api).get("id").asString();
        instanceId = UUID.fromString(createRunningInstance(api, instanceBody(accountId, "S3", 3, 3)).get("id").asString());
    }

    @Test
    void anInstanceHasSecureListenersUnlessCreatedWithTheDevelopmentFlag() {
        JsonNode secure = api.get("/instances/" + instanceId).json();
        assertThat(secure.get("spec").get("listenerSecurity").asString()).isEqualTo("SASL_SSL");
        JsonNode connection = secure.get("connection");
        assertThat(connection.get("securityProtocol").asString()).isEqualTo("SASL_SSL");
        assertThat(connection.get("saslMechanism").asString()).isEqualTo("SCRAM-SHA-512");
        assertThat(connection.get("caCertificateUrl").asString()).isEqualTo("/instances/" + instanceId + "/ca-certificate");
        assertThat(connection.get("bootstrapServers")).isEqualTo(secure.get("inventory").get("bootstrapServers"));

        JsonNode plain = api.get("/instances/" + plaintextInstance()).json();
        assertThat(plain.get("spec").get("listenerSecurity").asString()).isEqualTo("PLAINTEXT_UNAUTHENTICATED");
        assertThat(plain.get("connection").get("securityProtocol").asString()).isEqualTo("PLAINTEXT");
        assertThat(plain.get("connection").get("saslMechanism").isNull()).isTrue();
        assertThat(plain.get("connection").get("caCertificateUrl").isNull()).isTrue();
    }

    @Test
    void theListenersCannotChangeInPlace() {
        String etag = api.get("/instances/" + instanceId).header("ETag").orElseThrow();
        ApiClient.Response refused = api.header("If-Match", etag).patch("/instances/" + instanceId,
                Map.of("listenerSecurity", "PLAINTEXT_UNAUTHENTICATED"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().get("type").asString()).endsWith("/replacement-required");
        assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("listenerSecurity");
        assertThat(api.get("/instances/" + instanceId).json().get("specVersion").asInt()).isEqualTo(1);
    }

    @Test
    void anInstanceGetsOneCaEvenWhenManyAskForItAtOnce() throws Exception {
        var instance = instances.find(instanceId).orElseThrow();
        int callers = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        List<Future<String>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < callers; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return authorities.certificatePem(instance);
                }));
            }
            start.countDown();
            Set<String> certificates = new HashSet<>();
            for (Future<String> answer : answers) {
                certificates.add(answer.get());
            }
            assertThat(certificates).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(jdbc.sql("SELECT count(*) FROM instance_certificate_authorities WHERE instance_id = ?")
                .param(instanceId).query(Long.class).single()).isEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM audit_events WHERE resource_id = ? AND action = ?")
                .params(instanceId.toString(), "instance.create-certificate-authority").query(Long.class).single())
                .isEqualTo(1);

        X509Certificate ca = certificate(api(VIEWER).get("/instances/" + instanceId + "/ca-certificate").body());
        assertThat(ca.getSubjectX500Principal().getName()).isEqualTo("CN=Keel instance " + instanceId + " CA");
        assertThat(ca.getBasicConstraints()).isZero();
        assertThat(ca.getKeyUsage()[5]).as("keyCertSign").isTrue();
        assertThat(((ECPublicKey) ca.getPublicKey()).getParams().getCurve().getField().getFieldSize()).isEqualTo(256);
        assertThat(Duration.between(ca.getNotBefore().toInstant(), ca.getNotAfter().toInstant()).toDays())
                .isBetween(3652L, 3653L);
        String sealed = jdbc.sql("SELECT encode(sealed_key, 'base64') FROM instance_certificate_authorities WHERE instance_id = ?")
                .param(instanceId).query(String.class).single();
        assertThat(sealed).as("the key is stored sealed, not as PKCS#8").doesNotStartWith("MI");
    }

    @Test
    void aSignedCsrChainsToTheDownloadableCaWithItsNamesAndTheBrokersSubject() throws Exception {
        KeyPair keys = ec("secp256r1");
        String request = csr(keys, List.of(dns(host(2))));
        assertThat(agentSchema("request").validate(JsonMapper.builder().build().writeValueAsString(Map.of("csr", request)),
                InputFormat.JSON)).isEmpty();
        ApiClient.Response signed = ingest(tokens.of(instanceId), 2, Map.of("csr", request));
        assertThat(signed.status()).as(signed.toString()).isEqualTo(200);
        assertThat(agentSchema("response").validate(signed.body(), InputFormat.JSON)).isEmpty();

        ApiClient.Response download = api(VIEWER).get("/instances/" + instanceId + "/ca-certificate");
        assertThat(download.status()).isEqualTo(200);
        assertThat(download.header("Content-Type").orElseThrow()).startsWith("application/x-pem-file");
        String name = api.get("/instances/" + instanceId).json().get("name").asString();
        assertThat(download.header("Content-Disposition").orElseThrow())
                .isEqualTo("attachment; filename=\"" + name + "-ca.pem\"");
        assertThat(signed.json().get("caCertificate").asString()).isEqualTo(download.body());

        X509Certificate ca = certificate(download.body());
        X509Certificate leaf = certificate(signed.json().get("certificate").asString());
        PKIXParameters trust = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
        trust.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX").validate(
                CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf)), trust);

        assertThat(leaf.getPublicKey()).isEqualTo(keys.getPublic());
        assertThat(leaf.getSubjectX500Principal().getName()).isEqualTo("CN=keel-brokers." + instanceId);
        assertThat(leaf.getSubjectAlternativeNames().stream().map(n -> (Object) n.get(1)).toList())
                .containsExactly(host(2));
        assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(leaf.getBasicConstraints()).isEqualTo(-1);
        assertThat(leaf.getSerialNumber().bitLength()).isBetween(100, 128);
        Instant notAfter = Instant.parse(signed.json().get("notAfter").asString());
        assertThat(leaf.getNotAfter().toInstant()).isEqualTo(notAfter);
        assertThat(notAfter).isCloseTo(Instant.now().plus(Duration.ofDays(90)), within(Duration.ofMinutes(2)));

        assertThat(jdbc.sql("SELECT node_id || ' ' || serial FROM issued_broker_certificates WHERE instance_id = ?")
                .param(instanceId).query(String.class).list())
                .containsExactly("2 " + leaf.getSerialNumber().toString(16));
        assertThat(jdbc.sql("""
                SELECT actor_subject || ' ' || (after ->> 'nodeId') || ' ' || (after ->> 'serial') FROM audit_events
                WHERE resource_id = ? AND action = 'instance.issue-broker-certificate'
                """).param(instanceId.toString()).query(String.class).list())
                .containsExactly("system:keel-tls 2 " + leaf.getSerialNumber().toString(16));

        ApiClient.Response rsaSigned = ingest(tokens.of(instanceId), 0, Map.of("csr", csr(rsa(2048), List.of(dns(host(0))))));
        assertThat(rsaSigned.status()).as("RSA 2048").isEqualTo(200);
        assertThat(certificate(rsaSigned.json().get("certificate").asString()).getSerialNumber())
                .isNotEqualTo(leaf.getSerialNumber());
    }

    @Test
    void aCsrTheControlPlaneWillNotSignIsRefusedOnItsField() {
        KeyPair keys = ec("secp256r1");
        List<GeneralName> own = List.of(dns(host(0)));
        List<GeneralName> nine = new ArrayList<>();
        for (int i = 1; i <= 9; i++) {
            nine.add(ip("10.0.0." + i));
        }
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("not PEM", "hello");
        refused.put("a certificate, not a CSR", api(VIEWER).get("/instances/" + instanceId + "/ca-certificate").body());
        refused.put("signed with another key", csr(keys, ec("secp256r1").getPrivate(), own));
        refused.put("P-384", csr(ec("secp384r1"), own));
        refused.put("RSA 1024", csr(rsa(1024), own));
        refused.put("no names", csr(keys, List.of()));
        refused.put("nine names", csr(keys, nine));
        refused.put("an e-mail name", csr(keys, List.of(dns(host(0)), new GeneralName(GeneralName.rfc822Name, "a@b.example"))));
        refused.put("a wildcard", csr(keys, List.of(dns("*.example.com"))));
        refused.forEach((why, csr) -> {
            ApiClient.Response response = ingest(tokens.of(instanceId), 0, Map.of("csr", csr));
            assertThat(response.status()).as(why + ": " + response).isEqualTo(400);
            assertThat(response.json().get("errors").get(0).get("field").asString()).as(why).isEqualTo("csr");
        });
        ApiClient.Response missing = ingest(tokens.of(instanceId), 0, Map.of());
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.json().get("errors").get(0).get("field").asString()).isEqualTo("csr");
        assertThat(issuedCertificates()).isZero();
    }

    @Test
    void aCertificateNamesOnlyTheNodesOwnAddresses() {
        // What each CSR asks for, and the name its refusal must give as not the node's.
        Map<List<GeneralName>, String> refused = new LinkedHashMap<>();
        refused.put(List.of(dns("localhost")), "localhost");
        refused.put(List.of(ip("127.0.0.1")), "127.0.0.1");
        refused.put(List.of(dns(host(2))), host(2));
        refused.put(List.of(dns("evil.example")), "evil.example");
        refused.put(List.of(dns(host(1)), dns("Evil.Example")), "evil.example");
        refused.forEach((names, name) -> {
            ApiClient.Response response = ingest(tokens.of(instanceId), 1, Map.of("csr", csr(ec("secp256r1"), names)));
            assertThat(response.status()).as(names + ": " + response).isEqualTo(400);
            JsonNode error = response.json().get("errors").get(0);
            assertThat(error.get("field").asString()).isEqualTo("csr");
            assertThat(error.get("message").asString()).as("names what it refuses and what it allows")
                    .isEqualTo("asks for [" + name + "], which are not node 1's addresses; it may ask only for ["
                            + host(1) + "]");
        });
        assertThat(issuedCertificates()).as("nothing signed, nothing stored").isZero();

        ApiClient.Response signed = ingest(tokens.of(instanceId), 1,
                Map.of("csr", csr(ec("secp256r1"), List.of(dns(host(1).toUpperCase(Locale.ROOT))))));
        assertThat(signed.status()).as("its own address, whatever its case: " + signed).isEqualTo(200);
        assertThat(issuedCertificates()).isEqualTo(1);
    }

    @Test
    void onEc2ANodesAddressesAreItsPrivateAddressAndTheNamesEc2GivesIt() {
        // Node 1 as the AWS driver records a broker in us-east-1: its private address and port, its machine.
        jdbc.sql("""
                UPDATE instances SET inventory = jsonb_set(inventory, '{brokers,1}', (inventory #> '{brokers,1}')
                    || '{"address": "10.0.1.5:9092", "machineId": "i-0abc1234def567890"}'::jsonb)
                WHERE id = ?
                """).param(instanceId).update();
        assertThat(ingest(tokens.of(instanceId), 1, Map.of("csr", csr(ec("secp256r1"),
                List.of(ip("10.0.1.5"), dns("ip-10-0-1-5.ec2.internal"))))).status())
                .as("its address and IMDS local-hostname, as the agent asks on EC2").isEqualTo(200);
        assertThat(ingest(tokens.of(instanceId), 1, Map.of("csr", csr(ec("secp256r1"),
                List.of(dns("i-0abc1234def567890.ec2.internal"))))).status())
                .as("its name in a subnet that names hosts by resource").isEqualTo(200);
        for (GeneralName other : List.of(ip("10.0.1.6"), dns("ip-10-0-1-6.ec2.internal"),
                dns("ip-10-0-1-5.us-west-2.compute.internal"), dns(host(2)))) {
            ApiClient.Response refused = ingest(tokens.of(instanceId), 1, Map.of("csr", csr(ec("secp256r1"),
                    List.of(other))));
            assertThat(refused.status()).as(other + ": " + refused).isEqualTo(400);
            assertThat(refused.json().get("errors").get(0).get("message").asString()).endsWith("it may ask only for "
                    + "[10.0.1.5, ip-10-0-1-5.ec2.internal, i-0abc1234def567890.ec2.internal]");
        }
        assertThat(issuedCertificates()).isEqualTo(2);
    }

    @Test
    void aNodeTheInstanceDoesNotHaveGetsNoCertificate() {
        int nodes = instances.find(instanceId).orElseThrow().inventory().brokers().size();
        ApiClient.Response refused = ingest(tokens.of(instanceId), nodes, Map.of("csr", csr(ec("secp256r1"),
                List.of(dns("b" + nodes + host(0).substring(2))))));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("nodeId");
        assertThat(refused.json().get("errors").get(0).get("message").asString())
                .contains("it has nodes 0 to " + (nodes - 1));
        assertThat(issuedCertificates()).isZero();
    }

    /**
     * A machine a running create, update or repair launched may ask before the step that launched it records it, or
     * while the machine it replaces is still recorded: it is told to ask again (the agent does on 503), not signed.
     */
    @Test
    void whileAnOperationLaunchesBrokersOtherNamesAreDeferredNotSigned() {
        UUID played = UUID.fromString(createInstancePlayedByTest(api, instanceBody(accountId, "S3", 3, 3)).get("id").asString());
        String path = "/instances/" + played;
        String operation = api.header("If-Match", api.get(path).header("ETag").orElseThrow())
                .patch(path, Map.of("aku", 4)).json().get("id").asString();
        api.await("/operations/" + operation, op -> op.at("/steps/4/state").asString().equals("RUNNING"),
                OPERATION_TIMEOUT);

        ApiClient ingest = new ApiClient("http://localhost:" + port + "/ingest/v1", tokens.of(played));
        ApiClient.Response deferred = ingest.post(path + "/nodes/0/certificate",
                Map.of("csr", csr(ec("secp256r1"), List.of(ip("10.9.9.9")))));
        assertThat(deferred.status()).as(deferred.toString()).isEqualTo(503);
        assertThat(deferred.json().get("type").asString()).endsWith("/node-not-recorded");
        assertThat(deferred.json().get("errors").get(0).get("field").asString()).isEqualTo("csr");

        String own = hostOf(played, 0);
        assertThat(ingest.post(path + "/nodes/0/certificate", Map.of("csr", csr(ec("secp256r1"), List.of(dns(own)))))
                .status()).isEqualTo(200);
        assertThat(jdbc.sql("SELECT count(*) FROM issued_broker_certificates WHERE instance_id = ?").param(played)
                .query(Long.class).single()).isEqualTo(1);
    }

    @Test
    void onlyTheInstancesOwnAgentsGetCertificatesAndOnlyForSecureListeners() {
        Map<String, String> request = Map.of("csr", csr(ec("secp256r1"), List.of(dns(host(0)))));
        assertThat(ingest(tokens.of(UUID.randomUUID()), 0, request).status()).isEqualTo(401);
        assertThat(ingest(null, 0, request).status()).isEqualTo(401);

        UUID plain = plaintextInstance();
        ApiClient.Response refused = new ApiClient("http://localhost:" + port + "/ingest/v1", tokens.of(plain))
                .post("/instances/" + plain + "/nodes/0/certificate", request);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("type").asString()).endsWith("/listener-unauthenticated");
        ApiClient.Response noCa = api(VIEWER).get("/instances/" + plain + "/ca-certificate");
        assertThat(noCa.status()).isEqualTo(409);
        assertThat(noCa.json().get("type").asString()).endsWith("/listener-unauthenticated");
    }

    @Test
    void anotherOrganizationCannotSeeTheCa() {
        ApiClient.Response other = api(OTHER_ORG_ADMIN).get("/instances/" + instanceId + "/ca-certificate");
        assertThat(other.status()).isEqualTo(404);
        assertThat(anonymous().get("/instances/" + instanceId + "/ca-certificate").status()).isEqualTo(401);
        assertThat(jdbc.sql("SELECT count(*) FROM instance_certificate_authorities WHERE instance_id = ?").param(instanceId)
                .query(Long.class).single()).as("no CA made for a caller who may not see it").isZero();
    }

    /** Where the inventory records node {@code node} of the instance: the no-cloud driver names it. */
    private String host(int node) {
        return hostOf(instanceId, node);
    }

    private String hostOf(UUID instance, int node) {
        String address = instances.find(instance).orElseThrow().inventory().brokers().stream()
                .filter(b -> b.nodeId() == node).findFirst().orElseThrow().address();
        return address.substring(0, address.lastIndexOf(':'));
    }

    private long issuedCertificates() {
        return jdbc.sql("SELECT count(*) FROM issued_broker_certificates WHERE instance_id = ?").param(instanceId)
                .query(Long.class).single();
    }

    private UUID plaintextInstance() {
        Map<String, Object> body = new HashMap<>(instanceBody(accountId, "S3", 3, 3));
        body.put("listenerSecurity", "PLAINTEXT_UNAUTHENTICATED");
        return UUID.fromString(createRunningInstance(api, body).get("id").asString());
    }

    private ApiClient.Response ingest(String token, int node, Map<String, String> body) {
        return new ApiClient("http://localhost:" + port + "/ingest/v1", token)
                .post("/instances/" + instanceId + "/nodes/" + node + "/certificate", body);
    }

    private static JsonSchema agentSchema(String definition) {
        try (InputStream in = Files.newInputStream(Path.of("../contract/agent-certificate.schema.json"))) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012, builder -> builder.schemaLoaders(
                    loaders -> loaders.schemas(Map.of("https://keel.dev/schemas/agent-certificate/v1.json", text))))
                    .getSchema(SchemaLocation.of("https://keel.dev/schemas/agent-certificate/v1.json#/$defs/" + definition));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X509Certificate certificate(String pem) {
        try {
            Collection<?> all = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
            assertThat(all).hasSize(1);
            return (X509Certificate) all.iterator().next();
        } catch (Exception e) {
            throw new AssertionError("not a PEM certificate: " + pem, e);
        }
    }
}

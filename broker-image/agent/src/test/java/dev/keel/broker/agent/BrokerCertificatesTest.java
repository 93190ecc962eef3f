package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

class BrokerCertificatesTest {
    @TempDir
    Path dir;

    @Test
    void theRequestIsSignedByTheBrokersKeyAndNamesItsAddressesAsIpAndDnsNames() throws Exception {
        BrokerCertificates certificates = new BrokerCertificates(Specs.s3ThreeZones(Specs.SASL_SSL), 4,
                List.of("10.0.2.14", "ip-10-0-2-14.ec2.internal", "10.0.2.14"), dir, Clock.systemUTC());
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair key = generator.generateKeyPair();

        String pem = certificates.csr(key);

        assertThat(pem).startsWith("-----BEGIN CERTIFICATE REQUEST-----");
        PKCS10CertificationRequest csr;
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            csr = (PKCS10CertificationRequest) parser.readObject();
        }
        assertThat(csr.isSignatureValid(new JcaContentVerifierProviderBuilder().build(key.getPublic()))).isTrue();
        assertThat(csr.getSubject().toString()).isEqualTo("CN=keel-brokers." + Specs.INSTANCE);
        GeneralName[] names = GeneralNames.fromExtensions(csr.getRequestedExtensions(),
                Extension.subjectAlternativeName).getNames();
        assertThat(names).hasSize(2);
        assertThat(names[0].getTagNo()).isEqualTo(GeneralName.iPAddress);
        assertThat(InetAddress.getByAddress(
                org.bouncycastle.asn1.DEROctetString.getInstance(names[0].getName()).getOctets()).getHostAddress())
                .isEqualTo("10.0.2.14");
        assertThat(names[1].getTagNo()).isEqualTo(GeneralName.dNSName);
        assertThat(names[1].getName().toString()).isEqualTo("ip-10-0-2-14.ec2.internal");
        assertThat(csr.getRequestedExtensions().getExtensionOIDs()).as("the SANs and nothing else")
                .containsExactly(Extension.subjectAlternativeName);
        assertThat(ContractSchema.validate(Path.of("../../contract/agent-certificate.schema.json"), "request",
                new String(BrokerCertificates.requestBody(pem), java.nio.charset.StandardCharsets.UTF_8))).isEmpty();
    }

    @Test
    void theCertificateEndpointIsUnderTheIngestUrl() {
        UUID id = UUID.fromString(Specs.INSTANCE);
        assertThat(BrokerCertificates.certificateUri(java.net.URI.create("https://keel.example/ingest/"), id, 2))
                .hasToString("https://keel.example/ingest/v1/instances/" + id + "/nodes/2/certificate");
    }

    @Test
    void aControlPlaneThatDoesNotAnswerIsAskedAgainOneThatRefusesIsNot() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String silent = Specs.json("S3", "1.7.3", 3, Specs.SASL_SSL)
                .replace("https://ingest.keel.example/", "http://127.0.0.1:" + closedPort + "/ingest");
        assertThatThrownBy(() -> certificates(silent).renew()).isInstanceOf(BrokerCertificates.Unavailable.class);

        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ingest/", exchange -> {
            exchange.sendResponseHeaders(exchange.getRequestHeaders().getFirst("Authorization")
                    .equals("Bearer s3cr3t-token") ? 409 : 500, -1);
            exchange.close();
        });
        server.start();
        try {
            String refusing = Specs.json("S3", "1.7.3", 3, Specs.SASL_SSL).replace("https://ingest.keel.example/",
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/ingest");
            assertThatThrownBy(() -> certificates(refusing).renew()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("HTTP 409");
        } finally {
            server.stop(0);
        }
        assertThat(Arrays.asList(dir.toFile().list())).as("nothing written without a certificate").isEmpty();
    }

    private BrokerCertificates certificates(String spec) {
        return new BrokerCertificates(NodeSpec.parse(spec), 0, List.of("127.0.0.1"), dir, Clock.systemUTC());
    }
}

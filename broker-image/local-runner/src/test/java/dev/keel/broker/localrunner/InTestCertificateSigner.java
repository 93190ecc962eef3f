package dev.keel.broker.localrunner;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An in-test stand-in for the control plane's certificate endpoint, speaking exactly its wire shape
 * ({@code POST <ingest>/v1/instances/<id>/nodes/<node>/certificate}, {@code Authorization: Bearer <token>},
 * {@code {"csr": "<PKCS#10 PEM>"}} → {@code {"certificate", "caCertificate", "notAfter"}}): one instance's CA, which
 * issues {@code CN=keel-brokers.<instanceId>} with the CSR's subjectAltNames, serverAuth and clientAuth. Its
 * certificates stay valid for {@code ahead} but their validity began {@code behind} ago, so that an agent finds them
 * due for renewal (less than a third left) {@code ahead - (ahead + behind) / 3} after issue: renewals come soon,
 * while no certificate expires during a test. Everything else of the ingest API answers 404 (the agent's reports
 * are not this test's subject).
 */
final class InTestCertificateSigner implements AutoCloseable {
    private static final Pattern PATH = Pattern.compile("/ingest/v1/instances/([0-9a-f-]{36})/nodes/(\\d+)/certificate");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final UUID instanceId;
    private final String token;
    private final Duration ahead;
    private final Duration behind;
    private final KeyPair caKey;
    private final X509Certificate ca;
    private final HttpServer server;
    private final Map<Integer, List<X509Certificate>> issued = new ConcurrentHashMap<>();

    InTestCertificateSigner(UUID instanceId, String token, Duration ahead, Duration behind) throws Exception {
        this.instanceId = instanceId;
        this.token = token;
        this.ahead = ahead;
        this.behind = behind;
        this.caKey = ecKey();
        X500Name caName = new X500Name("CN=Keel instance CA " + instanceId);
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caName, serial(),
                Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(1))), caName,
                caKey.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        this.ca = sign(builder);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ingest/", this::handle);
        server.start();
    }

    /** The node spec's {@code ingestUrl}. */
    URI ingestUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ingest");
    }

    X509Certificate ca() {
        return ca;
    }

    /** Every certificate issued to {@code node}, oldest first. */
    List<X509Certificate> issuedTo(int node) {
        return issued.getOrDefault(node, List.of());
    }

    /** A CA PEM file, as a client downloads it. */
    Path writeCa(Path file) throws IOException {
        Files.writeString(file, pem(ca));
        return file;
    }

    /** A PKCS12 keystore under {@code password} holding a broker certificate: the brokers' own (super user) identity. */
    Path writeBrokerKeystore(Path file, String password) throws Exception {
        KeyPair key = ecKey();
        X509Certificate cert = leaf(key.getPublic(), new GeneralNames(new org.bouncycastle.asn1.x509.GeneralName(
                org.bouncycastle.asn1.x509.GeneralName.dNSName, "localhost")));
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("broker", key.getPrivate(), password.toCharArray(), new Certificate[]{cert, ca});
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
        return file;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Matcher m = PATH.matcher(exchange.getRequestURI().getPath());
            if (!m.matches() || !"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (!("Bearer " + token).equals(exchange.getRequestHeaders().getFirst("Authorization"))
                    || !instanceId.toString().equals(m.group(1))) {
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            String csrPem;
            try (InputStream in = exchange.getRequestBody()) {
                csrPem = JSON.readTree(in).path("csr").asText();
            }
            X509Certificate cert;
            try {
                cert = fromCsr(csrPem);
            } catch (Exception e) {
                byte[] problem = JSON.writeValueAsBytes(Map.of("type", "validation-failed", "status", 400,
                        "errors", List.of(Map.of("field", "csr", "message", String.valueOf(e.getMessage())))));
                exchange.getResponseHeaders().set("Content-Type", "application/problem+json");
                exchange.sendResponseHeaders(400, problem.length);
                exchange.getResponseBody().write(problem);
                return;
            }
            issued.computeIfAbsent(Integer.parseInt(m.group(2)), n -> new CopyOnWriteArrayList<>()).add(cert);
            byte[] body = JSON.writeValueAsBytes(Map.of("certificate", pem(cert), "caCertificate", pem(ca),
                    "notAfter", cert.getNotAfter().toInstant().toString()));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private X509Certificate fromCsr(String csrPem) throws Exception {
        PKCS10CertificationRequest csr;
        try (PEMParser parser = new PEMParser(new StringReader(csrPem))) {
            csr = (PKCS10CertificationRequest) parser.readObject();
        }
        if (csr == null || !csr.isSignatureValid(new JcaContentVerifierProviderBuilder()
                .build(csr.getSubjectPublicKeyInfo()))) {
            throw new IllegalArgumentException("not a signed PKCS#10 request");
        }
        Extensions requested = csr.getRequestedExtensions();
        GeneralNames names = requested == null ? null : GeneralNames.fromExtensions(requested,
                Extension.subjectAlternativeName);
        if (names == null) {
            throw new IllegalArgumentException("no subjectAltName");
        }
        return leaf(new org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest(csr).getPublicKey(), names);
    }

    private X509Certificate leaf(java.security.PublicKey key, GeneralNames names) throws Exception {
        Instant now = Instant.now();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(ca, serial(), Date.from(now.minus(behind)),
                Date.from(now.plus(ahead)), new X500Name("CN=keel-brokers." + instanceId), key)
                .addExtension(Extension.subjectAlternativeName, false, names)
                .addExtension(Extension.keyUsage, true,
                        new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                        new KeyPurposeId[]{KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
        return sign(builder);
    }

    private X509Certificate sign(X509v3CertificateBuilder builder) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(caKey.getPrivate())));
    }

    private static BigInteger serial() {
        return new BigInteger(128, new SecureRandom());
    }

    private static KeyPair ecKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static String pem(X509Certificate cert) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(cert);
        }
        return out.toString();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

package dev.keel.broker.agent;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.bouncycastle.util.IPAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The broker's TLS identity. Generates an EC P-256 key on this machine (it never leaves it), sends a certificate
 * signing request naming the broker's addresses to the control plane
 * ({@code POST <ingestUrl>/v1/instances/<id>/nodes/<node>/certificate} with the instance token), and writes what
 * comes back: the key and its certificate chain as a PKCS12 keystore under a random password held only in memory
 * (and in the rendered broker config), the instance CA's certificate as a PEM truststore. Both files are mode 600 and
 * replaced atomically, so a broker re-reading them never sees half a file.
 *
 * <p>The control plane sets the subject itself ({@code CN=keel-brokers.<instanceId>}); the CSR carries it anyway.
 */
public final class BrokerCertificates {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerCertificates.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ALIAS = "broker";
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration LONGEST_RETRY = Duration.ofSeconds(30);

    private final URI endpoint;
    private final String token;
    private final UUID instanceId;
    private final List<String> subjectAltNames;
    private final BrokerTlsFiles files;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private volatile X509Certificate current;

    /** {@code subjectAltNames}: IP addresses and DNS names the broker is reached at (IP SANs for the addresses). */
    public BrokerCertificates(NodeSpec spec, int nodeId, List<String> subjectAltNames, Path dir, Clock clock) {
        this.endpoint = certificateUri(spec.ingestUrl(), spec.instanceId(), nodeId);
        this.token = spec.ingestToken();
        this.instanceId = spec.instanceId();
        this.subjectAltNames = subjectAltNames.stream().distinct().toList();
        this.files = BrokerTlsFiles.in(dir, randomPassword());
        this.clock = clock;
    }

    public static URI certificateUri(URI ingestUrl, UUID instanceId, int nodeId) {
        String base = ingestUrl.toString().replaceAll("/+$", "");
        return URI.create(base + "/v1/instances/" + instanceId + "/nodes/" + nodeId + "/certificate");
    }

    public BrokerTlsFiles files() {
        return files;
    }

    /** The certificate in the keystore now (null before the first {@link #obtain()}). */
    public X509Certificate current() {
        return current;
    }

    /**
     * A new key and certificate in the keystore, asking until the control plane answers (the broker cannot start
     * without them). Refused by the control plane (bad request, wrong token, instance deleted): fails.
     */
    public X509Certificate obtain() throws InterruptedException {
        Duration wait = FIRST_RETRY;
        while (true) {
            try {
                return renew();
            } catch (Unavailable e) {
                LOG.warn("no certificate yet from {} ({}): asking again in {} s", endpoint, e.getMessage(),
                        wait.toSeconds());
                Thread.sleep(wait.toMillis());
                wait = wait.multipliedBy(2).compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait.multipliedBy(2);
            }
        }
    }

    /** True when less than a third of the current certificate's validity remains. */
    public boolean renewalDue() {
        X509Certificate cert = current;
        if (cert == null) {
            return true;
        }
        Instant notBefore = cert.getNotBefore().toInstant();
        Instant notAfter = cert.getNotAfter().toInstant();
        Duration third = Duration.between(notBefore, notAfter).dividedBy(3);
        return Duration.between(clock.instant(), notAfter).compareTo(third) < 0;
    }

    /** One attempt: new key, CSR, certificate, keystore and truststore rewritten in place. */
    public X509Certificate renew() throws Unavailable {
        KeyPair key = newKey();
        String csr = csr(key);
        Issued issued = request(csr);
        if (!issued.certificate().getPublicKey().equals(key.getPublic())) {
            throw new IllegalStateException("the control plane's certificate is not for the key this broker sent");
        }
        try {
            issued.certificate().verify(issued.ca().getPublicKey());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the control plane's certificate is not signed by the CA it sent", e);
        }
        writeKeystore(key, issued);
        writeAtomically(files.truststore(), issued.caPem().getBytes(StandardCharsets.US_ASCII));
        current = issued.certificate();
        LOG.info("broker certificate serial {} valid until {} written to {}", current.getSerialNumber().toString(16),
                current.getNotAfter().toInstant(), files.keystore());
        return current;
    }

    /** The control plane did not answer, or answered that it cannot now: worth asking again. */
    public static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    private record Issued(X509Certificate certificate, X509Certificate ca, String caPem) {
    }

    /** The request's body ({@code contract/agent-certificate.schema.json}, {@code request}). */
    static byte[] requestBody(String csr) {
        try {
            return JSON.writeValueAsBytes(Map.of("csr", csr));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Issued request(String csr) throws Unavailable {
        byte[] body = requestBody(csr);
        HttpRequest req = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<String> resp;
        try {
            resp = http.send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Unavailable(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted");
        }
        int status = resp.statusCode();
        if (status == 404 || status == 429 || status >= 500) {
            throw new Unavailable("HTTP " + status);
        }
        if (status != 200) {
            throw new IllegalStateException("the control plane refused this broker's certificate request: HTTP "
                    + status + " " + resp.body());
        }
        try {
            JsonNode answer = JSON.readTree(resp.body());
            String caPem = answer.path("caCertificate").asText();
            return new Issued(certificate(answer.path("certificate").asText()), certificate(caPem), caPem);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("unreadable answer to the certificate request: " + e.getMessage(), e);
        }
    }

    private static X509Certificate certificate(String pem) throws GeneralSecurityException {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }

    private static KeyPair newKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot make EC P-256 keys", e);
        }
    }

    /** PKCS#10 in PEM, with the broker's names as subjectAltNames in the extensionRequest. */
    String csr(KeyPair key) {
        GeneralName[] names = subjectAltNames.stream().map(n -> IPAddress.isValid(n)
                ? new GeneralName(GeneralName.iPAddress, n) : new GeneralName(GeneralName.dNSName, n))
                .toArray(GeneralName[]::new);
        try {
            ExtensionsGenerator extensions = new ExtensionsGenerator();
            extensions.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            var request = new JcaPKCS10CertificationRequestBuilder(
                    new X500Name(BrokerConfigRenderer.brokerPrincipal(instanceId)), key.getPublic())
                    .addAttribute(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest, extensions.generate())
                    .build(new JcaContentSignerBuilder("SHA256withECDSA").build(key.getPrivate()));
            StringWriter pem = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(pem)) {
                writer.writeObject(request);
            }
            return pem.toString();
        } catch (IOException | OperatorCreationException e) {
            throw new IllegalStateException("could not make the certificate signing request", e);
        }
    }

    private void writeKeystore(KeyPair key, Issued issued) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = files.keystorePassword().toCharArray();
            store.setKeyEntry(ALIAS, key.getPrivate(), password, new Certificate[]{issued.certificate(), issued.ca()});
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            store.store(bytes, password);
            writeAtomically(files.keystore(), bytes.toByteArray());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("could not write the keystore " + files.keystore(), e);
        }
    }

    /** Written next to the target, mode 600 from its creation, then moved over it. */
    private static void writeAtomically(Path target, byte[] content) {
        try {
            Path dir = target.getParent();
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            }
            Path tmp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (OutputStream out = Files.newOutputStream(tmp)) {
                out.write(content);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException("could not write " + target, e);
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}

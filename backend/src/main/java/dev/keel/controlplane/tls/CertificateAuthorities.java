package dev.keel.controlplane.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.secrets.SecretBox;

/**
 * Each instance's own certificate authority (EC P-256, ten years, may sign only end-entity certificates), made the
 * first time it is needed, with no cloud call. Two requests that need it at once may both make one; the row's primary
 * key keeps only the first, and both use that one. Its key is stored sealed with {@link SecretBox}.
 */
@Component
class CertificateAuthorities {

    static final String AUDIT_COMPONENT = "keel-tls";
    private static final int VALIDITY_YEARS = 10;

    private final JdbcClient jdbc;
    private final SecretBox secrets;
    private final AuditLog audit;
    private final Clock clock;

    CertificateAuthorities(JdbcClient jdbc, SecretBox secrets, AuditLog audit, Clock clock) {
        this.jdbc = jdbc;
        this.secrets = secrets;
        this.audit = audit;
        this.clock = clock;
    }

    /** The instance's CA certificate, as PEM; made now if the instance has none yet. */
    String certificatePem(Instance instance) {
        return stored(instance.id()).orElseGet(() -> create(instance)).certificatePem();
    }

    /** The instance's CA with its key opened, to sign with; made now if the instance has none yet. */
    CertificateAuthority forSigning(Instance instance) {
        Stored stored = stored(instance.id()).orElseGet(() -> create(instance));
        byte[] key = secrets.open(stored.sealedKey(), context(instance.id()));
        try {
            PrivateKey privateKey = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(key));
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(stored.certificatePem().getBytes(StandardCharsets.US_ASCII)));
            return new CertificateAuthority(instance.id(), certificate, stored.certificatePem(), privateKey);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The CA of instance " + instance.id() + " cannot be read", e);
        }
    }

    private record Stored(String certificatePem, byte[] sealedKey) {
    }

    private Optional<Stored> stored(UUID instanceId) {
        return jdbc.sql("SELECT certificate_pem, sealed_key FROM instance_certificate_authorities WHERE instance_id = ?")
                .param(instanceId).query((rs, n) -> new Stored(rs.getString(1), rs.getBytes(2))).optional();
    }

    /** Makes a CA and stores it unless another request stored one first; either way, the one stored. */
    private Stored create(Instance instance) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant notAfter = now.atOffset(ZoneOffset.UTC).plusYears(VALIDITY_YEARS).toInstant();
        KeyPair keys = keyPair();
        X509Certificate certificate = selfSigned(instance.id(), keys, now, notAfter);
        String pem = Pem.of(certificate);
        int inserted = jdbc.sql("""
                INSERT INTO instance_certificate_authorities (instance_id, certificate_pem, sealed_key, created_at, not_after)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (instance_id) DO NOTHING
                """).params(instance.id(), pem, secrets.seal(keys.getPrivate().getEncoded(), context(instance.id())),
                        Timestamp.from(now), Timestamp.from(notAfter)).update();
        if (inserted == 1) {
            audit.recordSystem(instance.organizationId(), AUDIT_COMPONENT, "instance.create-certificate-authority",
                    "instance", instance.id(), null, Map.of("subject", certificate.getSubjectX500Principal().getName(),
                            "serial", certificate.getSerialNumber().toString(16), "notAfter", notAfter.toString()));
        }
        return stored(instance.id()).orElseThrow();
    }

    private static X509Certificate selfSigned(UUID instanceId, KeyPair keys, Instant notBefore, Instant notAfter) {
        X500Name subject = new X500Name("CN=Keel instance " + instanceId + " CA");
        return CertificateSigner.sign(new JcaX509v3CertificateBuilder(subject, CertificateSigner.serialNumber(),
                Date.from(notBefore), Date.from(notAfter), subject, keys.getPublic()), (builder, utils) -> {
                    // Path length 0: it signs brokers' certificates, never another CA.
                    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
                    builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                    builder.addExtension(Extension.subjectKeyIdentifier, false,
                            utils.createSubjectKeyIdentifier(keys.getPublic()));
                }, keys.getPrivate());
    }

    private static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String context(UUID instanceId) {
        return "ca-key:" + instanceId;
    }
}

package dev.keel.controlplane.tls;

import java.security.cert.X509Certificate;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.instances.Instance;

/**
 * Signs brokers' certificates with their instance's CA. Every broker of an instance gets the same subject,
 * {@code CN=keel-brokers.<instance id>}, whatever its CSR says: it is the brokers' principal on their mutual-TLS
 * listeners, and the only super user. A SCRAM user's name can hold neither {@code =} nor {@code ,}, so no client can
 * take it. Its names must be the node's own addresses ({@link BrokerAddresses}). Each certificate is recorded and
 * audited.
 */
@Service
class BrokerCertificates {

    /** Tolerates a broker whose clock is slightly behind the control plane's. */
    private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    private final CertificateAuthorities authorities;
    private final BrokerAddresses addresses;
    private final JdbcClient jdbc;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final Duration validity;

    BrokerCertificates(CertificateAuthorities authorities, BrokerAddresses addresses, JdbcClient jdbc, AuditLog audit,
                       TransactionTemplate transactions, Clock clock,
                       @Value("${keel.tls.broker-certificate-validity:P90D}") Duration validity) {
        if (validity.compareTo(Duration.ofHours(1)) < 0) {
            throw new IllegalStateException("keel.tls.broker-certificate-validity must be an hour or more, not " + validity);
        }
        this.authorities = authorities;
        this.addresses = addresses;
        this.jdbc = jdbc;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
        this.validity = validity;
    }

    /** A signed certificate, the CA it chains to, and until when it is valid. */
    record Issued(String certificate, String caCertificate, Instant notAfter) {
    }

    static String subject(UUID instanceId) {
        return "CN=keel-brokers." + instanceId;
    }

    Issued issue(Instance instance, int nodeId, String csrPem) {
        SigningRequests.SigningRequest csr = SigningRequests.read(csrPem);
        addresses.check(instance, nodeId, csr.names());
        CertificateAuthority ca = authorities.forSigning(instance);
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant caEnd = ca.certificate().getNotAfter().toInstant();
        Instant notAfter = now.plus(validity).isAfter(caEnd) ? caEnd : now.plus(validity);
        X509Certificate certificate = sign(ca, csr, now.minus(CLOCK_SKEW), notAfter);
        String serial = certificate.getSerialNumber().toString(16);
        transactions.executeWithoutResult(tx -> {
            jdbc.sql("""
                    INSERT INTO issued_broker_certificates (instance_id, node_id, serial, issued_at, not_after)
                    VALUES (?, ?, ?, ?, ?)
                    """).params(instance.id(), nodeId, serial, Timestamp.from(now), Timestamp.from(notAfter)).update();
            Map<String, Object> after = new LinkedHashMap<>();
            after.put("nodeId", nodeId);
            after.put("serial", serial);
            after.put("subject", subject(instance.id()));
            after.put("subjectAlternativeNames", Arrays.stream(csr.names().getNames()).map(Object::toString).toList());
            after.put("notAfter", notAfter.toString());
            audit.recordSystem(instance.organizationId(), CertificateAuthorities.AUDIT_COMPONENT,
                    "instance.issue-broker-certificate", "instance", instance.id(), null, after);
        });
        return new Issued(Pem.of(certificate), ca.certificatePem(), notAfter);
    }

    private static X509Certificate sign(CertificateAuthority ca, SigningRequests.SigningRequest csr, Instant notBefore,
                                        Instant notAfter) {
        return CertificateSigner.sign(new JcaX509v3CertificateBuilder(ca.certificate(), CertificateSigner.serialNumber(),
                Date.from(notBefore), Date.from(notAfter), new X500Name(subject(ca.instanceId())), csr.publicKey()),
                (builder, utils) -> {
                    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
                    builder.addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
                    // Both: a broker serves TLS and, on the inter-broker and controller listeners, is a client too.
                    builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                            new KeyPurposeId[]{KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
                    builder.addExtension(Extension.subjectAlternativeName, false, csr.names());
                    builder.addExtension(Extension.authorityKeyIdentifier, false,
                            utils.createAuthorityKeyIdentifier(ca.certificate()));
                    builder.addExtension(Extension.subjectKeyIdentifier, false,
                            utils.createSubjectKeyIdentifier(csr.publicKey()));
                }, ca.key());
    }
}

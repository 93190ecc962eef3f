package dev.keel.controlplane.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;

import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** Signs certificates the instances' CAs issue, their own included: ECDSA with SHA-256, random serial numbers. */
final class CertificateSigner {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Adds a certificate's extensions to its builder. */
    interface Extensions {
        void add(JcaX509v3CertificateBuilder builder, JcaX509ExtensionUtils utils)
                throws CertIOException, GeneralSecurityException;
    }

    private CertificateSigner() {
    }

    /** 128 random bits, so no two certificates of a CA share a serial number. */
    static BigInteger serialNumber() {
        byte[] serial = new byte[16];
        RANDOM.nextBytes(serial);
        return new BigInteger(1, serial);
    }

    static X509Certificate sign(JcaX509v3CertificateBuilder builder, Extensions extensions, PrivateKey issuerKey) {
        try {
            extensions.add(builder, new JcaX509ExtensionUtils());
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
        } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
            throw new IllegalStateException(e);
        }
    }
}

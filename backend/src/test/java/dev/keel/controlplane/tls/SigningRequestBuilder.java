package dev.keel.controlplane.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.util.List;

import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;

/** Certificate signing requests as a broker's agent makes them, and as it must not. */
final class SigningRequestBuilder {

    private SigningRequestBuilder() {
    }

    static KeyPair ec(String curve) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec(curve));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static KeyPair rsa(int bits) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(bits);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A CSR for {@code keys}' public key asking for {@code names}, signed with {@code signer}. */
    static String csr(KeyPair keys, PrivateKey signer, List<GeneralName> names) {
        try {
            JcaPKCS10CertificationRequestBuilder builder = new JcaPKCS10CertificationRequestBuilder(
                    new X500Name("CN=broker-0,O=whatever the agent says"), keys.getPublic());
            if (!names.isEmpty()) {
                ExtensionsGenerator extensions = new ExtensionsGenerator();
                extensions.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(names.toArray(GeneralName[]::new)));
                builder.addAttribute(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest, extensions.generate());
            }
            String algorithm = signer.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            PKCS10CertificationRequest csr = builder.build(new JcaContentSignerBuilder(algorithm).build(signer));
            StringWriter pem = new StringWriter();
            try (JcaPEMWriter writer = new JcaPEMWriter(pem)) {
                writer.writeObject(csr);
            }
            return pem.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }

    static String csr(KeyPair keys, List<GeneralName> names) {
        return csr(keys, keys.getPrivate(), names);
    }

    static GeneralName ip(String address) {
        return new GeneralName(GeneralName.iPAddress, address);
    }

    static GeneralName dns(String name) {
        return new GeneralName(GeneralName.dNSName, name);
    }
}

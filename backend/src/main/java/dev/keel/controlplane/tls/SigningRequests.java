package dev.keel.controlplane.tls;

import java.io.IOException;
import java.io.StringReader;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.pkcs.Attribute;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;

import dev.keel.controlplane.shared.ApiException;

/**
 * Reads a broker's certificate signing request (PKCS#10, PEM) and refuses, on the field {@code csr}, one the control
 * plane will not sign: not a CSR, a signature that does not verify with its own key (the broker holds the key), a key
 * other than EC P-256 or RSA of 2,048 to 8,192 bits, or subject alternative names other than 1 to 8 IP addresses and DNS
 * names. Its subject, and any extension but the names, is ignored: the certificate's are fixed.
 */
final class SigningRequests {

    static final String FIELD = "csr";
    static final int MAX_NAMES = 8;
    private static final int MAX_PEM_CHARS = 16_384;
    private static final Pattern DNS_NAME =
            Pattern.compile("^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$");

    /** A CSR that passed: its verified public key and the names it asks for. */
    record SigningRequest(PublicKey publicKey, GeneralNames names) {
    }

    private SigningRequests() {
    }

    static SigningRequest read(String pem) {
        if (pem == null || pem.isBlank()) {
            throw refused("is required: a PKCS#10 certificate signing request in PEM (-----BEGIN CERTIFICATE REQUEST-----)");
        }
        if (pem.length() > MAX_PEM_CHARS) {
            throw refused("is longer than " + MAX_PEM_CHARS + " characters; a broker's CSR is far shorter");
        }
        PKCS10CertificationRequest csr = parse(pem);
        PublicKey key = publicKey(csr);
        try {
            if (!csr.isSignatureValid(new JcaContentVerifierProviderBuilder().build(key))) {
                throw refused("has a signature that does not verify with its own public key");
            }
        } catch (ApiException e) {
            throw e;
        } catch (Exception e) {
            throw refused("has a signature that cannot be verified: " + e.getMessage());
        }
        return new SigningRequest(key, names(csr));
    }

    private static PKCS10CertificationRequest parse(String pem) {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object object = parser.readObject();
            if (object instanceof PKCS10CertificationRequest csr && parser.readObject() == null) {
                return csr;
            }
        } catch (IOException | RuntimeException e) {
            throw refused("is not a PEM certificate signing request: " + e.getMessage());
        }
        throw refused("must be exactly one PEM block -----BEGIN CERTIFICATE REQUEST----- (PKCS#10)");
    }

    private static PublicKey publicKey(PKCS10CertificationRequest csr) {
        AlgorithmIdentifier algorithm = csr.getSubjectPublicKeyInfo().getAlgorithm();
        PublicKey key;
        try {
            key = new JcaPKCS10CertificationRequest(csr).getPublicKey();
        } catch (Exception e) {
            throw refused("has a public key that cannot be read: " + e.getMessage());
        }
        if (X9ObjectIdentifiers.id_ecPublicKey.equals(algorithm.getAlgorithm())) {
            if (!X9ObjectIdentifiers.prime256v1.equals(algorithm.getParameters())) {
                throw refused("has an EC key on another curve than P-256 (secp256r1)");
            }
            return key;
        }
        if (PKCSObjectIdentifiers.rsaEncryption.equals(algorithm.getAlgorithm()) && key instanceof RSAPublicKey rsa) {
            int bits = rsa.getModulus().bitLength();
            if (bits < 2048 || bits > 8192) {
                throw refused("has an RSA key of " + bits + " bits; it must have 2048 to 8192");
            }
            return key;
        }
        throw refused("has a key of type " + algorithm.getAlgorithm().getId() + "; it must be EC P-256 or RSA (2048 bits or more)");
    }

    private static GeneralNames names(PKCS10CertificationRequest csr) {
        List<GeneralName> names = new ArrayList<>();
        for (Attribute attribute : csr.getAttributes(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest)) {
            for (ASN1Encodable value : attribute.getAttributeValues()) {
                GeneralNames requested = GeneralNames.fromExtensions(Extensions.getInstance(value),
                        Extension.subjectAlternativeName);
                if (requested != null) {
                    names.addAll(List.of(requested.getNames()));
                }
            }
        }
        if (names.isEmpty() || names.size() > MAX_NAMES) {
            throw refused("must ask for 1 to " + MAX_NAMES + " subject alternative names (the broker's advertised "
                    + "IP addresses or DNS names, which clients verify); it asks for " + names.size());
        }
        for (GeneralName name : names) {
            switch (name.getTagNo()) {
                case GeneralName.iPAddress -> {
                    int octets = ASN1OctetString.getInstance(name.getName()).getOctets().length;
                    if (octets != 4 && octets != 16) {
                        throw refused("has an IP address subject alternative name of " + octets
                                + " bytes; an address has 4 (IPv4) or 16 (IPv6)");
                    }
                }
                case GeneralName.dNSName -> {
                    String dns = name.getName().toString();
                    if (!DNS_NAME.matcher(dns).matches()) {
                        throw refused("has the DNS name '" + dns + "', which is not a host name (no wildcards)");
                    }
                }
                default -> throw refused("has a subject alternative name of another kind than IP address or DNS name ("
                        + kind(name) + ")");
            }
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    private static String kind(GeneralName name) {
        return switch (name.getTagNo()) {
            case GeneralName.rfc822Name -> "e-mail address";
            case GeneralName.uniformResourceIdentifier -> "URI";
            case GeneralName.directoryName -> "directory name";
            case GeneralName.otherName -> "other name";
            case GeneralName.registeredID -> "registered id " + ASN1ObjectIdentifier.getInstance(name.getName()).getId();
            default -> "tag " + name.getTagNo();
        };
    }

    private static ApiException refused(String message) {
        return ApiException.validation(FIELD, message);
    }
}

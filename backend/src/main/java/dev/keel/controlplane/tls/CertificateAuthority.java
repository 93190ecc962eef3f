package dev.keel.controlplane.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.UUID;

/** An instance's CA, its key opened for signing: held only while a certificate is signed, never kept. */
record CertificateAuthority(UUID instanceId, X509Certificate certificate, String certificatePem, PrivateKey key) {

    @Override
    public String toString() {
        return "CertificateAuthority[instanceId=" + instanceId + ", key=(redacted)]";
    }
}

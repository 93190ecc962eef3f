package dev.keel.controlplane.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;

import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;

/** Certificates as PEM text, the form agents, clients and the database hold them in. */
final class Pem {

    private Pem() {
    }

    static String of(X509Certificate certificate) {
        try {
            StringWriter text = new StringWriter();
            try (PemWriter pem = new PemWriter(text)) {
                pem.writeObject(new PemObject("CERTIFICATE", certificate.getEncoded()));
            }
            return text.toString();
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.keel.broker.agent;

import java.nio.file.Path;

/**
 * Where the broker's TLS material is: its PKCS12 keystore (the key generated on this machine and its certificate)
 * under {@code keystorePassword}, and the instance CA's certificate as a PEM truststore. The password is random per
 * agent start, held in memory and in the rendered broker config only.
 */
public record BrokerTlsFiles(Path keystore, String keystorePassword, Path truststore) {

    /** In {@code dir}: {@code broker.p12} and {@code ca.pem}. */
    public static BrokerTlsFiles in(Path dir, String keystorePassword) {
        return new BrokerTlsFiles(dir.resolve("broker.p12"), keystorePassword, dir.resolve("ca.pem"));
    }

    @Override
    public String toString() {
        return "BrokerTlsFiles[keystore=" + keystore + ", truststore=" + truststore + "]";
    }
}

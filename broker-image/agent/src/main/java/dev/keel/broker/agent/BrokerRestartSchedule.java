package dev.keel.broker.agent;

import java.time.Duration;
import java.time.Instant;

/**
 * When a broker restarts onto its renewed certificate. Kafka keeps presenting the certificate a broker started with on
 * its connections to the KRaft controllers, even after the keystore was reloaded (KAFKA-20025, in Apache Kafka 4.4 and
 * AutoMQ 1.x): once that certificate expires, the broker could not connect to the controllers again. So each broker
 * restarts (a controlled shutdown, then the same command) before it does. An instance's brokers renew at about the
 * same time; each takes its own slot, by node id, in the first half of what is left of the old certificate's life, so
 * that no two of {@value #SLOTS} consecutive nodes restart together.
 */
final class BrokerRestartSchedule {

    static final int SLOTS = 16;

    private BrokerRestartSchedule() {
    }

    static Instant restartAt(Instant renewedAt, Instant oldCertificateExpiry, int nodeId) {
        Duration left = Duration.between(renewedAt, oldCertificateExpiry);
        if (left.isNegative() || left.isZero()) {
            return renewedAt;
        }
        return renewedAt.plus(left.multipliedBy(nodeId % SLOTS + 1).dividedBy(2L * (SLOTS + 1)));
    }
}

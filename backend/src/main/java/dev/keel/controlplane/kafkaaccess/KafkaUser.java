package dev.keel.controlplane.kafkaaccess;

import java.time.Instant;

/** A Kafka user as the API shows it: never its password. */
record KafkaUser(String name, String mechanism, AccessStatus status, String statusMessage, int credentialVersion,
                 Instant createdAt, Instant passwordRotatedAt, Instant restoredAt) {

    static final String MECHANISM = "SCRAM-SHA-512";
}

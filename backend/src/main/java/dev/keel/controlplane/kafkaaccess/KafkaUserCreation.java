package dev.keel.controlplane.kafkaaccess;

/** A Kafka user to create: only its name; the password is generated. */
record KafkaUserCreation(String name) {
}

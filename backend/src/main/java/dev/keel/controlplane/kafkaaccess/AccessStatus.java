package dev.keel.controlplane.kafkaaccess;

/** Where the broker agent is with a user, an ACL or a topic (see the contract's {@code KafkaAccessStatus}). */
enum AccessStatus {
    CREATING, ACTIVE, UPDATING, RESTORING, DELETING, FAILED
}

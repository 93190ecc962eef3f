package dev.keel.controlplane.instances;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import dev.keel.controlplane.operations.Operation;

/** A create's answer: its operation, and the default Kafka user's credentials, shown this once (null when none). */
record InstanceCreationAccepted(@JsonUnwrapped Operation operation, DefaultKafkaUser.AdminCredentials adminCredentials) {
}

package dev.keel.controlplane.instances;

import java.util.Optional;

import dev.keel.controlplane.identity.Caller;

/**
 * Records a new instance's default Kafka user, in the create's transaction, so the instance and the user that can
 * reach its brokers exist together or not at all. Implemented by the feature that owns Kafka users.
 */
public interface DefaultKafkaUser {

    /** The default user's credentials, to show once; empty when the instance's brokers authenticate nobody. */
    Optional<AdminCredentials> createFor(Caller caller, Instance instance);

    record AdminCredentials(String username, String password) {

        @Override
        public String toString() {
            return "AdminCredentials[username=" + username + ", password=(redacted)]";
        }
    }
}

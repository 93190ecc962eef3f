package dev.keel.controlplane.instances;

import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.provisioner.ListenerSecurity;

/** Refuses what only an instance with authenticated, encrypted listeners has. */
public final class ListenerSecurityGuard {

    private ListenerSecurityGuard() {
    }

    /** Whether the instance's brokers authenticate clients, so that Kafka users, ACLs and a CA mean something. */
    public static boolean authenticates(Instance instance) {
        return instance.spec().listenerSecurity() == ListenerSecurity.SASL_SSL;
    }

    public static void requireSecure(Instance instance, String consequence) {
        if (!authenticates(instance)) {
            throw ApiException.of(ProblemType.LISTENER_UNAUTHENTICATED, "Instance " + instance.name() + " was created "
                    + "with listenerSecurity " + instance.spec().listenerSecurity() + " (plaintext, no authentication): "
                    + consequence + ". Create an instance with SASL_SSL listeners for TLS and SCRAM users.");
        }
    }
}

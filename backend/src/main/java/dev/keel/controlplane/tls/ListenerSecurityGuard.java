package dev.keel.controlplane.tls;

import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.provisioner.ListenerSecurity;

/** Refuses what only an instance with authenticated, encrypted listeners has. */
final class ListenerSecurityGuard {

    private ListenerSecurityGuard() {
    }

    static void requireSecure(Instance instance, String consequence) {
        if (instance.spec().listenerSecurity() != ListenerSecurity.SASL_SSL) {
            throw ApiException.of(ProblemType.LISTENER_UNAUTHENTICATED, "Instance " + instance.name() + " was created "
                    + "with listenerSecurity " + instance.spec().listenerSecurity() + " (plaintext, no authentication): "
                    + consequence + ". Create an instance with SASL_SSL listeners for TLS and SCRAM users.");
        }
    }
}

package dev.keel.controlplane.instances;

import dev.keel.provisioner.ListenerSecurity;

/**
 * The desired shape of an instance, as stored; {@code catalogVersion} says which AKU definition sized it, and
 * {@code listenerSecurity} how its brokers let clients in (fixed at create).
 */
public record InstanceSpec(NetworkSpec network, WalSpec wal, int aku, FsxSpec fsx, String brokerVersion,
                           int catalogVersion, ListenerSecurity listenerSecurity) {

    /** Clients authenticate and traffic is encrypted unless the development flag says otherwise. */
    public static final ListenerSecurity DEFAULT_LISTENER_SECURITY = ListenerSecurity.SASL_SSL;
}

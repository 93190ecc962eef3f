package dev.keel.controlplane.instances;

import dev.keel.provisioner.ListenerSecurity;

/**
 * A JSON merge patch of an instance: its capacity, which changes in place through an operation, and its deletion
 * protection, a setting of the control plane's own; {@code wal}, {@code network} and {@code listenerSecurity} are
 * accepted only to be refused with a message that says what to do instead.
 */
record InstanceUpdate(Integer aku, FsxSpec fsx, WalSpec wal, NetworkSpec network, Boolean deletionProtection,
                      ListenerSecurity listenerSecurity) {

    /** Whether the patch asks for nothing but a change of deletion protection, which touches no cloud. */
    boolean onlyDeletionProtection() {
        return deletionProtection != null && aku == null && fsx == null && wal == null && network == null
                && listenerSecurity == null;
    }

    /** The same patch without its deletion protection: what a plan of it would change in the cloud. */
    InstanceUpdate capacity() {
        return new InstanceUpdate(aku, fsx, wal, network, null, listenerSecurity);
    }
}

package dev.keel.controlplane.instances;

import java.util.UUID;

import dev.keel.provisioner.ListenerSecurity;

/**
 * The body of {@code POST /instances}: where the instance goes, its spec, and whether a delete is refused until that
 * is turned off (off when left out, as it was before the setting existed), and how its brokers let clients in
 * ({@link InstanceSpec#DEFAULT_LISTENER_SECURITY} when left out).
 */
record InstanceCreation(String name, UUID cloudAccountId, String region, NetworkSpec network, WalSpec wal, Integer aku,
                        FsxSpec fsx, String brokerVersion, Boolean deletionProtection,
                        ListenerSecurity listenerSecurity) {

    boolean protectedFromDeletion() {
        return Boolean.TRUE.equals(deletionProtection);
    }
}

package dev.keel.controlplane.instances;

import java.util.UUID;

/** The body of {@code POST /instances}: where the instance goes, and its spec. */
record InstanceCreation(String name, UUID cloudAccountId, String region, NetworkSpec network, WalSpec wal, Integer aku,
                        FsxSpec fsx, String brokerVersion) {
}

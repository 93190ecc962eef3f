package dev.keel.controlplane.instances;

/** The desired shape of an instance, as stored; {@code catalogVersion} says which AKU definition sized it. */
public record InstanceSpec(NetworkSpec network, WalSpec wal, int aku, FsxSpec fsx, String brokerVersion,
                           int catalogVersion) {
}

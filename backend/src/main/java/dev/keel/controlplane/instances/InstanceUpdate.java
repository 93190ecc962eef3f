package dev.keel.controlplane.instances;

/**
 * A JSON merge patch of an instance's spec. Only capacity changes in place; {@code wal} and
 * {@code network} are accepted only to be refused with a message that says what to do instead.
 */
record InstanceUpdate(Integer aku, FsxSpec fsx, WalSpec wal, NetworkSpec network) {
}

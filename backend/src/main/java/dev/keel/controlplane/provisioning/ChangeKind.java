package dev.keel.controlplane.provisioning;

public enum ChangeKind {
    CREATE, UPDATE, DELETE, REPAIR
}

package dev.keel.provisioner;

public enum ChangeKind {
    CREATE, UPDATE, DELETE, REPAIR
}

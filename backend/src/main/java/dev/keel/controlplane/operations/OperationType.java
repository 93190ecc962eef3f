package dev.keel.controlplane.operations;

public enum OperationType {
    CREATE, UPDATE, DELETE, REPAIR
}

package dev.keel.controlplane.instances;

public enum InstanceState {
    CREATING, RUNNING, CHANGING, DELETING, DELETED, FAILED
}

package dev.keel.controlplane.instances;

import dev.keel.provisioner.WalType;

public record WalSpec(WalType type) {
}

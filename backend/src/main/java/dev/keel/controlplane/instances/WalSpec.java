package dev.keel.controlplane.instances;

import dev.keel.controlplane.catalog.WalType;

public record WalSpec(WalType type) {
}

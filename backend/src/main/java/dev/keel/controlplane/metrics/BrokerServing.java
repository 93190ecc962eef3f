package dev.keel.controlplane.metrics;

import java.util.UUID;

/**
 * A broker's agent reported its listener up for the first time since the broker (re)started or moved to a new machine:
 * it now serves clients.
 */
public record BrokerServing(UUID instanceId, int nodeId) {
}

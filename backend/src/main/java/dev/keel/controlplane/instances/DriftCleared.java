package dev.keel.controlplane.instances;

import java.util.UUID;

/**
 * An operation brought an instance whose cloud had drifted back to its spec, within the transaction that records it:
 * the instance's broker conditions, left alone while it had drifted, are to be read again from its brokers.
 */
public record DriftCleared(UUID instanceId) {
}

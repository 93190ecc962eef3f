package dev.keel.controlplane.instances;

import java.time.Instant;

import dev.keel.provisioner.Inventory;

/**
 * A broker of an instance as its agent's reports and the delivery of the instance's credentials show it, the one
 * reading the API, the instance's conditions and the step that waits for brokers to serve share. {@code STARTING}:
 * its machine's agent has not reported yet, its broker has not yet served clients from that machine, or it serves
 * and waits for the instance's credentials; {@code HEALTHY}: it serves with them, reporting; {@code UNHEALTHY}: it
 * served, and now its agent is silent, or it reports its process down, its listener unreachable or no quorum.
 * {@code address} is where clients reach it (what it advertises, else what the cloud showed), {@code status} what its
 * agent last reported, null when it has not from this machine.
 */
public record BrokerState(Phase phase, String message, String address, BrokerStatuses.BrokerStatus status) {

    public enum Phase { STARTING, HEALTHY, UNHEALTHY }

    static BrokerState of(Inventory.Broker broker, BrokerStatuses.BrokerStatus status, boolean credentialsAwaited) {
        if (status == null || ofAnotherMachine(status, broker)) {
            return new BrokerState(Phase.STARTING, "Its machine is starting: its agent has not reported from it yet.",
                    broker.address(), null);
        }
        String address = status.address() != null ? status.address() : broker.address();
        if (status.silent()) {
            return new BrokerState(Phase.UNHEALTHY, status.problem(), address, status);
        }
        if (status.servingSince() == null) {
            return new BrokerState(Phase.STARTING, "Its broker is starting: it does not serve clients yet.", address,
                    status);
        }
        if (credentialsAwaited) {
            return new BrokerState(Phase.STARTING, "It serves; the instance's credentials are being written to it.",
                    address, status);
        }
        return status.problem() == null ? new BrokerState(Phase.HEALTHY, "Healthy.", address, status)
                : new BrokerState(Phase.UNHEALTHY, status.problem(), address, status);
    }

    public boolean serving() {
        return phase == Phase.HEALTHY;
    }

    public Instant reportedAt() {
        return status == null ? null : status.reportedAt();
    }

    /** Whether the node's last report came from another machine than the one the inventory now lists for it. */
    private static boolean ofAnotherMachine(BrokerStatuses.BrokerStatus status, Inventory.Broker broker) {
        return status.machineId() != null && broker.machineId() != null && !status.machineId().equals(broker.machineId());
    }
}

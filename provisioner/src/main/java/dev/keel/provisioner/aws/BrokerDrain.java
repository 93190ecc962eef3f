package dev.keel.provisioner.aws;

import java.util.Map;

import dev.keel.provisioner.ProvisioningTarget;

/**
 * Called before the surplus brokers are terminated on scale-down: returns once their partitions have moved to the
 * brokers that stay (node ids below the target's broker count), or throws a
 * {@link dev.keel.provisioner.ProvisioningException} and the machines are kept. Brokers are reached through their
 * agents, which only the control plane talks to, so the control plane implements it.
 */
@FunctionalInterface
public interface BrokerDrain {

    /** {@code nodesByMachine}: the surplus brokers' node ids by EC2 instance id; they drain together. */
    void drain(ProvisioningTarget target, Map<String, Integer> nodesByMachine);

    /**
     * Terminates surplus brokers as they are, for a driver used with no control plane to reach the brokers (the
     * provisioner's own tests, whose brokers run no agent).
     */
    BrokerDrain NONE = (target, nodesByMachine) -> {
    };
}

package dev.keel.controlplane.instances;

import java.util.Set;
import java.util.UUID;

/**
 * The EC2 instances of an instance's brokers whose agents stopped reporting long enough ago that
 * the machine is taken for lost, even if EC2 still calls it running. Repairs replace them.
 */
public interface ImpairedBrokers {

    Set<String> silentMachines(UUID instanceId);
}

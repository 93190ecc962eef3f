package dev.keel.controlplane.instances;

/**
 * The broker agents of every live instance, fleet-wide: how many there are that report from the machine the inventory
 * lists for their node ({@code known}; a broker still starting has none yet), and how many of those are silent now.
 */
public interface FleetAgents {

    record Census(long known, long silent) {
    }

    Census census();
}

package dev.keel.broker.localrunner;

import java.util.UUID;

/**
 * Deterministic loopback ports per (instance, node): the same instance always gets the same ports, so a restarted
 * runner (or a developer's saved bootstrap string) finds the brokers where they were. 319 slots of 40 ports from
 * 20000; a node uses four (client listener, controller, inter-broker listener, JMX), so up to 10 nodes per
 * instance. Two instances can collide (1 in 319); the runner then reports the port in use.
 *
 * <p>Every port lies below 32768, where Linux starts handing out ports to outgoing connections: a broker binds its
 * client port only once it has joined the cluster, seconds to minutes after the runner found the port free, and an
 * outgoing connection that takes the port meanwhile makes the broker fail its start, restart after restart, its
 * listener never reachable.
 */
public record LocalPorts(int listener, int controller, int internal, int jmx) {
    public static final int BASE = 20000;
    /** The first port Linux hands out to outgoing connections (net.ipv4.ip_local_port_range, by default). */
    public static final int EPHEMERAL_START = 32768;
    public static final int STRIDE = 40;
    public static final int SLOTS = (EPHEMERAL_START - BASE) / STRIDE;
    public static final int PER_NODE = 4;
    public static final int MAX_NODES = STRIDE / PER_NODE;

    public static LocalPorts of(UUID instanceId, int nodeId) {
        if (nodeId < 0 || nodeId >= MAX_NODES) {
            throw new IllegalArgumentException("the local runner places at most " + MAX_NODES
                    + " brokers per instance; node " + nodeId + " is out of range");
        }
        int slot = Math.floorMod(instanceId.hashCode(), SLOTS);
        int first = BASE + slot * STRIDE + nodeId * PER_NODE;
        return new LocalPorts(first, first + 1, first + 2, first + 3);
    }
}

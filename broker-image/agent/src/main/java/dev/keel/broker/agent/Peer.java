package dev.keel.broker.agent;

/**
 * A broker of the same instance (this node included) as the config needs it: node id, address, ports, zone.
 * {@code internalPort} is the inter-broker listener's, null when the instance's listeners are plaintext.
 */
public record Peer(int nodeId, String host, int listenerPort, int controllerPort, Integer internalPort, String zone) {
}

package dev.keel.broker.agent;

/** A broker of the same instance (this node included) as the config needs it: node id, address, ports, zone. */
public record Peer(int nodeId, String host, int listenerPort, int controllerPort, String zone) {
}

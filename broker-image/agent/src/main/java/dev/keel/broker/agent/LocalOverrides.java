package dev.keel.broker.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the local runner tells the agent instead of EC2: the node's identity, its peers (loopback ports), where to
 * work, the stand-in broker's commands, and how long a stop may take (a stand-in needs no long controlled
 * shutdown). Command elements may use {config}, {clusterId}, {nodeId}, {jmxPort}.
 */
public record LocalOverrides(int nodeId, String zone, String address, String ec2InstanceId, List<Peer> peers,
                             int jmxPort, String workDir, String logDir, String standIn, List<String> formatCommand,
                             List<String> brokerCommand, Map<String, String> extraProperties,
                             Integer reportIntervalSeconds, Integer stopTimeoutSeconds) {

    public static LocalOverrides read(Path file) throws IOException {
        return new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .readValue(file.toFile(), LocalOverrides.class);
    }

    public void write(Path file) throws IOException {
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), this);
    }

    public Peer self() {
        return peers.stream().filter(p -> p.nodeId() == nodeId).findFirst()
                .orElseThrow(() -> new SpecException("peers", "must include this node (" + nodeId + ")"));
    }
}

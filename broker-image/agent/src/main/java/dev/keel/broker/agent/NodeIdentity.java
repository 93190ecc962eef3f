package dev.keel.broker.agent;

/**
 * Who this node is: its node id (from the instance's {@code byoc:node-id} tag), zone, private address, and the
 * EC2 instance id. On EC2 it comes from IMDSv2 ({@link Ec2Metadata}); the local runner injects it.
 */
public record NodeIdentity(int nodeId, String zone, String privateAddress, String ec2InstanceId) {
    public NodeIdentity {
        if (nodeId < 0) {
            throw new SpecException("nodeId", "must be >= 0, got " + nodeId);
        }
        if (privateAddress == null || privateAddress.isBlank()) {
            throw new SpecException("privateAddress", "is required");
        }
        if (zone == null || zone.isBlank()) {
            throw new SpecException("zone", "is required");
        }
    }
}

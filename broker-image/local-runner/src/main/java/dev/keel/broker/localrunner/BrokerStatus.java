package dev.keel.broker.localrunner;

/** One local broker as the status file shows it. */
public record BrokerStatus(String instanceId, String ec2InstanceId, int nodeId, String zone, String address,
                           String state, Long agentPid, String workDir, String error) {
}

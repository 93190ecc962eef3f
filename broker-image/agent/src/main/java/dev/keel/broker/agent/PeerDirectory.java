package dev.keel.broker.agent;

import java.util.List;

/**
 * The brokers of this instance. On EC2: DescribeInstances by tag ({@link Ec2PeerDirectory}); the local runner
 * passes them directly ({@link #fixed(List)}).
 */
public interface PeerDirectory {
    List<Peer> peers();

    static PeerDirectory fixed(List<Peer> peers) {
        List<Peer> copy = List.copyOf(peers);
        return () -> copy;
    }
}

package dev.keel.broker.agent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * Peers on EC2: the instance's brokers found by {@code tag:byoc:instance-id=<id>} in state pending or running,
 * their node id from the node-id tag. Needs {@code ec2:DescribeInstances} on the broker role (a proposed addition
 * to the provisioner's broker policy). Uses the instance role through the SDK's default chain.
 */
public final class Ec2PeerDirectory implements PeerDirectory {
    private final Ec2Client ec2;
    private final NodeSpec spec;

    public Ec2PeerDirectory(Ec2Client ec2, NodeSpec spec) {
        this.ec2 = ec2;
        this.spec = spec;
    }

    @Override
    public List<Peer> peers() {
        DescribeInstancesRequest req = DescribeInstancesRequest.builder().filters(
                Filter.builder().name("tag:byoc:instance-id").values(spec.instanceId().toString()).build(),
                Filter.builder().name("instance-state-name").values("pending", "running").build()).build();
        List<Peer> peers = new ArrayList<>();
        for (var page : ec2.describeInstancesPaginator(req)) {
            for (Reservation r : page.reservations()) {
                for (Instance i : r.instances()) {
                    Integer node = nodeId(i);
                    if (node != null && i.privateIpAddress() != null) {
                        peers.add(new Peer(node, i.privateIpAddress(), spec.listenerPort(), spec.controllerPort(),
                                spec.internalPort(), i.placement() == null ? null : i.placement().availabilityZone()));
                    }
                }
            }
        }
        peers.sort(Comparator.comparingInt(Peer::nodeId));
        return peers;
    }

    private Integer nodeId(Instance i) {
        for (Tag t : i.tags()) {
            if (t.key().equals(spec.nodeIdTag())) {
                try {
                    return Integer.parseInt(t.value().trim());
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }
}

package dev.keel.broker.agent;

import java.util.ArrayList;
import java.util.List;

/** Node specs and peers the tests share (the provisioner's shape plus the proposed keys). */
final class Specs {
    static final String INSTANCE = "3f2a8c1e-5b7d-4e9f-a1c3-0d2e4f6a8b9c";

    private Specs() {
    }

    static String json(String walType, String version, int brokers, String extra) {
        return """
                {"instanceId":"%s","instanceName":"orders","region":"us-east-1","brokerVersion":"%s","aku":3,
                 "brokerCount":%d,"walType":"%s","dataBucket":"keel-%s-data","opsBucket":"keel-%s-ops",
                 "listenerPort":9092,"controllerPort":9093,"nodeIdTag":"byoc:node-id",
                 "ingestUrl":"https://ingest.keel.example/","ingestToken":"s3cr3t-token"%s}
                """.formatted(INSTANCE, version, brokers, walType, INSTANCE, INSTANCE, extra);
    }

    /** The keys a SASL_SSL instance's spec adds. */
    static final String SASL_SSL = ",\"listenerSecurity\":\"SASL_SSL\",\"internalPort\":9094";

    static NodeSpec ebs1Zone() {
        return ebs1Zone("");
    }

    static NodeSpec ebs1Zone(String security) {
        return NodeSpec.parse(json("EBS", "1.4.1", 3, ",\"walDevice\":\"/dev/sdf\",\"zoneCount\":1" + security));
    }

    static NodeSpec s3ThreeZones() {
        return s3ThreeZones("");
    }

    static NodeSpec s3ThreeZones(String security) {
        return NodeSpec.parse(json("S3", "1.7.3", 6, ",\"zoneCount\":3" + security));
    }

    static NodeSpec fswal3Zones2Fs() {
        return fswal3Zones2Fs("");
    }

    static NodeSpec fswal3Zones2Fs(String security) {
        return NodeSpec.parse(json("FSWAL", "1.4.1", 6, security + """
                ,"zoneCount":3,"walFileSystems":2,"walFileSystemTag":"byoc:instance-id","walCapacityBytes":4294967296,
                 "walNfsEndpoints":[{"index":0,"dnsName":"svm-0a1b.fs-0a1b.fsx.us-east-1.amazonaws.com","junctionPath":"/keel_wal_0"},
                                    {"index":1,"dnsName":"svm-0c2d.fs-0c2d.fsx.us-east-1.amazonaws.com","junctionPath":"/keel_wal_1"}]"""));
    }

    /** Round-robin over the zones, addresses 10.0.<zone>.<10+node>, like the provisioner places brokers. */
    static List<Peer> peers(NodeSpec spec, List<String> zones) {
        List<Peer> peers = new ArrayList<>();
        for (int n = 0; n < spec.brokerCount(); n++) {
            int z = n % zones.size();
            peers.add(new Peer(n, "10.0." + (z + 1) + "." + (10 + n), 9092, 9093, spec.internalPort(), zones.get(z)));
        }
        return peers;
    }

    static NodeIdentity identity(List<Peer> peers, int node) {
        Peer p = peers.get(node);
        return new NodeIdentity(node, p.zone(), p.host(), "i-0000000000000000" + node);
    }
}

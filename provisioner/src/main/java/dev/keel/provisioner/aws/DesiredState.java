package dev.keel.provisioner.aws;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.WalType;

/**
 * The resources an instance should have in the customer's account, derived from its target alone
 * (a pure function: no AWS call, no clock). Names are deterministic from the instance id so every
 * step can find what an earlier attempt created.
 */
public record DesiredState(UUID instanceId, String region, String partition, Bucket dataBucket, Bucket opsBucket,
                           BrokerRole role, SecurityGroup securityGroup, LaunchTemplate launchTemplate,
                           List<Broker> brokers, List<WalVolume> walVolumes, List<WalFileSystem> fileSystems) {

    public static final String TAG_INSTANCE = "byoc:instance-id";
    public static final String TAG_RESOURCE = "byoc:resource";
    public static final String TAG_MANAGED_BY = "byoc:managed-by";
    public static final String MANAGED_BY = "keel";
    public static final String TAG_NODE = "byoc:node-id";
    public static final String TAG_SPEC_VERSION = "byoc:spec-version";

    public static final int KAFKA_PORT = 9092;
    public static final int CONTROLLER_PORT = 9093;
    public static final String IAM_PATH = "/keel/";
    /** Every bucket and IAM name starts with it, which the onboarding policy's resource patterns rely on. */
    public static final String NAME_PREFIX = "keel-";
    public static final String WAL_DEVICE = "/dev/sdf";

    public record Bucket(String logicalName, String name, Integer expireAfterDays) {
    }

    public record BrokerRole(String roleName, String profileName, String path, String trustPolicy, String policyName,
                             String policy) {
    }

    public enum Source { VPC_CIDR, SELF }

    public record IngressRule(String protocol, int fromPort, int toPort, Source source, String description) {
    }

    public record SecurityGroup(String logicalName, String groupName, String description, String vpcId,
                                List<IngressRule> ingress) {
    }

    /**
     * The brokers' launch template. {@code nodeSpec} is what the spec determines (and
     * {@code specVersion} hashes); the user data adds what only the cloud knows once the WAL file
     * systems exist, their NFS endpoints, so a plan and an apply agree on the version.
     */
    public record LaunchTemplate(String logicalName, String name, String imageId, String instanceType,
                                 Map<String, Object> nodeSpec, String specVersion) {

        public LaunchTemplate {
            nodeSpec = Collections.unmodifiableMap(new LinkedHashMap<>(nodeSpec));
        }

        public String userDataBase64(List<Map<String, Object>> walNfsEndpoints) {
            Map<String, Object> spec = new LinkedHashMap<>(nodeSpec);
            if (!walNfsEndpoints.isEmpty()) {
                spec.put("walNfsEndpoints", walNfsEndpoints);
            }
            return Base64.getEncoder().encodeToString(Json.write(spec).getBytes(StandardCharsets.UTF_8));
        }
    }

    public record Broker(int nodeId, String logicalName, String availabilityZone, String subnetId,
                         String clientToken) {
    }

    public record WalVolume(int nodeId, String logicalName, String availabilityZone, int sizeGiB, String volumeType,
                            String device, String clientToken) {
    }

    public record WalFileSystem(int index, String logicalName, String svmLogicalName, String volumeLogicalName,
                                String deploymentType, int throughputMBps, int storageGiB, List<String> subnetIds,
                                String preferredSubnetId, String svmName, String volumeName, String clientToken) {
    }

    /** What the target does not say and configuration does. */
    public record Defaults(Map<String, String> brokerImages, String ingestUrl, int walVolumeGiB, int fsxStorageGiB) {
        public static Defaults of(AwsProvisionerSettings settings) {
            return new Defaults(settings.brokerImages(), settings.defaultIngestUrl(), settings.walVolumeGiB(),
                    settings.fsxStorageGiB());
        }
    }

    public static DesiredState of(ProvisioningTarget target, Defaults defaults) {
        if (target.zones() == null || target.zones().isEmpty()) {
            throw new ProvisioningException("NO_SUBNETS", "The instance names no subnets to place brokers in.", false);
        }
        UUID id = target.instanceId();
        String base = prefix(id);
        String partition = partition(target.region());
        Bucket data = new Bucket("data-bucket", base + "-data", null);
        Bucket ops = new Bucket("ops-bucket", base + "-ops", 30);

        String trust = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Principal\":{\"Service\":\"ec2.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}";
        String policy = bucketPolicy(partition, List.of(data.name(), ops.name()));
        BrokerRole role = new BrokerRole(base + "-broker", base + "-broker", IAM_PATH, trust, "keel-broker-buckets",
                policy);

        List<IngressRule> rules = new ArrayList<>();
        rules.add(new IngressRule("tcp", KAFKA_PORT, KAFKA_PORT, Source.VPC_CIDR, "Kafka clients in the VPC"));
        rules.add(new IngressRule("tcp", CONTROLLER_PORT, CONTROLLER_PORT, Source.SELF, "KRaft controllers"));
        if (target.walType() == WalType.FSWAL) {
            for (int port : new int[]{111, 635, 2049, 4045, 4046}) {
                rules.add(new IngressRule("tcp", port, port, Source.SELF, "NFS to the WAL file systems"));
            }
        }
        SecurityGroup sg = new SecurityGroup("security-group", base + "-brokers",
                "Keel brokers of instance " + id, target.vpcId(), List.copyOf(rules));

        // One image per broker version: the agent in it refuses a node spec for another AutoMQ version.
        String image = target.brokerImage() != null ? target.brokerImage()
                : defaults.brokerImages().get(target.brokerVersion());
        String ingest = target.ingestUrl() != null ? target.ingestUrl() : defaults.ingestUrl();
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("instanceId", id.toString());
        spec.put("instanceName", target.instanceName());
        spec.put("region", target.region());
        spec.put("brokerVersion", target.brokerVersion());
        spec.put("aku", target.aku());
        spec.put("brokerCount", target.brokerCount());
        spec.put("walType", target.walType() == null ? null : target.walType().name());
        spec.put("dataBucket", data.name());
        spec.put("opsBucket", ops.name());
        spec.put("listenerPort", KAFKA_PORT);
        spec.put("controllerPort", CONTROLLER_PORT);
        spec.put("nodeIdTag", TAG_NODE);
        if (target.walType() == WalType.EBS) {
            spec.put("walDevice", WAL_DEVICE);
        }
        if (target.walType() == WalType.FSWAL) {
            spec.put("walFileSystems", fsxCount(target));
            spec.put("walFileSystemTag", TAG_INSTANCE);
        }
        spec.put("ingestUrl", ingest);
        spec.put("ingestToken", target.ingestToken());
        String specVersion = sha256(image + "|" + target.instanceType() + "|" + Json.write(spec)).substring(0, 8);
        LaunchTemplate lt = new LaunchTemplate("launch-template", base + "-brokers", image, target.instanceType(),
                spec, specVersion);

        List<Broker> brokers = new ArrayList<>();
        List<WalVolume> volumes = new ArrayList<>();
        String compactId = id.toString().replace("-", "");
        for (int node = 0; node < target.brokerCount(); node++) {
            ProvisioningTarget.Zone zone = target.zones().get(node % target.zones().size());
            brokers.add(new Broker(node, brokerName(node), zone.availabilityZone(), zone.subnetId(),
                    "keel-" + compactId + "-n" + node + "-" + specVersion));
            if (target.walType() == WalType.EBS) {
                volumes.add(new WalVolume(node, walVolumeName(node), zone.availabilityZone(), defaults.walVolumeGiB(),
                        "gp3", WAL_DEVICE, "keel-" + compactId + "-wal" + node));
            }
        }

        List<WalFileSystem> fileSystems = new ArrayList<>();
        if (target.walType() == WalType.FSWAL) {
            int throughput = target.fsxThroughputMBps() == null ? 384 : target.fsxThroughputMBps();
            boolean multiAz = target.zones().size() >= 3;
            List<String> subnets = multiAz
                    ? List.of(target.zones().get(0).subnetId(), target.zones().get(1).subnetId())
                    : List.of(target.zones().get(0).subnetId());
            for (int i = 0; i < fsxCount(target); i++) {
                fileSystems.add(new WalFileSystem(i, "wal-fs-" + i, "wal-svm-" + i, "wal-fs-volume-" + i,
                        // 2nd generation: the throughputs the catalog benchmarks (384, 768, 1,536 MBps) exist only there.
                        multiAz ? "MULTI_AZ_2" : "SINGLE_AZ_2", throughput, defaults.fsxStorageGiB(), subnets,
                        subnets.get(0), "keelwal" + i, "keel_wal_" + i, "keel-" + compactId + "-fs" + i));
            }
        }
        return new DesiredState(id, target.region(), partition, data, ops, role, sg, lt, List.copyOf(brokers),
                List.copyOf(volumes), List.copyOf(fileSystems));
    }

    /** Tags every resource of the instance carries. */
    public Map<String, String> tags(String logicalName) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put(TAG_INSTANCE, instanceId.toString());
        tags.put(TAG_RESOURCE, logicalName);
        tags.put(TAG_MANAGED_BY, MANAGED_BY);
        tags.put("Name", prefix(instanceId) + "-" + logicalName);
        return tags;
    }

    public Map<String, String> brokerTags(int nodeId, String logicalName) {
        Map<String, String> tags = tags(logicalName);
        tags.put(TAG_NODE, Integer.toString(nodeId));
        tags.put(TAG_SPEC_VERSION, launchTemplate.specVersion());
        return tags;
    }

    public static String prefix(UUID instanceId) {
        return NAME_PREFIX + instanceId;
    }

    public static String brokerName(int node) {
        return "broker-" + node;
    }

    public static String walVolumeName(int node) {
        return "wal-volume-" + node;
    }

    static int fsxCount(ProvisioningTarget target) {
        return target.fsxCount() == null ? 1 : target.fsxCount();
    }

    static String partition(String region) {
        if (region != null && region.startsWith("cn-")) {
            return "aws-cn";
        }
        if (region != null && region.startsWith("us-gov-")) {
            return "aws-us-gov";
        }
        return "aws";
    }

    static String bucketPolicy(String partition, List<String> buckets) {
        StringBuilder bucketArns = new StringBuilder();
        StringBuilder objectArns = new StringBuilder();
        for (String b : buckets) {
            if (!bucketArns.isEmpty()) {
                bucketArns.append(',');
                objectArns.append(',');
            }
            bucketArns.append("\"arn:").append(partition).append(":s3:::").append(b).append('"');
            objectArns.append("\"arn:").append(partition).append(":s3:::").append(b).append("/*\"");
        }
        return "{\"Version\":\"2012-10-17\",\"Statement\":["
                + "{\"Sid\":\"Buckets\",\"Effect\":\"Allow\",\"Action\":[\"s3:ListBucket\",\"s3:GetBucketLocation\","
                + "\"s3:ListBucketMultipartUploads\"],\"Resource\":[" + bucketArns + "]},"
                + "{\"Sid\":\"Objects\",\"Effect\":\"Allow\",\"Action\":[\"s3:GetObject\",\"s3:PutObject\","
                + "\"s3:DeleteObject\",\"s3:AbortMultipartUpload\",\"s3:ListMultipartUploadParts\"],"
                + "\"Resource\":[" + objectArns + "]}]}";
    }

    private static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

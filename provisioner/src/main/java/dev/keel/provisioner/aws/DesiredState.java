package dev.keel.provisioner.aws;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ListenerSecurity;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.WalType;

/**
 * The resources an instance should have in the customer's account, derived from its target alone
 * (a pure function: no AWS call, no clock). Names are deterministic from the instance id so every
 * step can find what an earlier attempt created. {@code establishedNodes} are the nodes whose brokers the
 * instance had when last observed: a machine launched for one of them replaces a broker, for any other it adds one.
 */
public record DesiredState(UUID instanceId, String region, String partition, WalType walType, Bucket dataBucket,
                           Bucket opsBucket, BrokerRole role, SecurityGroup securityGroup, LaunchTemplate launchTemplate,
                           List<Broker> brokers, List<WalVolume> walVolumes, List<WalFileSystem> fileSystems,
                           Set<Integer> establishedNodes, NetworkPaths networkPaths) {

    public static final String TAG_INSTANCE = "byoc:instance-id";
    public static final String TAG_RESOURCE = "byoc:resource";
    public static final String TAG_MANAGED_BY = "byoc:managed-by";
    public static final String MANAGED_BY = "keel";
    public static final String TAG_NODE = "byoc:node-id";
    public static final String TAG_SPEC_VERSION = "byoc:spec-version";
    /** On a deleted instance's data bucket: when its retention ends and it is emptied and deleted (ISO-8601, UTC). */
    public static final String TAG_RETAIN_UNTIL = "byoc:retain-until";

    public static final int KAFKA_PORT = 9092;
    public static final int CONTROLLER_PORT = 9093;
    /** The brokers' mutual-TLS listener for each other (SASL_SSL instances only). */
    public static final int INTERNAL_PORT = 9094;
    public static final String IAM_PATH = "/keel/";
    /** Every bucket and IAM name starts with it, which the onboarding policy's resource patterns rely on. */
    public static final String NAME_PREFIX = "keel-";
    public static final String WAL_DEVICE = "/dev/sdf";
    /** The {@code byoc:resource} tag of the S3 gateway endpoint Keel creates in a VPC, shared by its instances there. */
    public static final String S3_GATEWAY_ENDPOINT_NAME = "s3-gateway-endpoint";
    /** The logical name of the brokers' launch template. */
    public static final String LAUNCH_TEMPLATE_NAME = "launch-template";
    /** The broker role's one inline policy. */
    public static final String BROKER_POLICY_NAME = "keel-broker-buckets";

    /**
     * {@code policy}: the bucket's own policy, which refuses every request not made over TLS; {@code retainedUntil}:
     * until when a delete keeps the bucket, with its data (null: a delete removes it at once).
     */
    public record Bucket(String logicalName, String name, Integer expireAfterDays, IamPolicy policy,
                         Instant retainedUntil) {
    }

    /**
     * The brokers' role, trusting EC2 ({@code trust}), with one inline policy on the instance's buckets, capped by
     * the account's broker {@code permissionsBoundary} (an ARN).
     */
    public record BrokerRole(String roleName, String profileName, String path, String permissionsBoundary,
                             IamPolicy trust, String policyName, IamPolicy permissions) {

        public String trustPolicy() {
            return trust.json();
        }

        public String policy() {
            return permissions.json();
        }
    }

    public enum Source { VPC_CIDR, SELF }

    public record IngressRule(String protocol, int fromPort, int toPort, Source source, String description) {
    }

    public record SecurityGroup(String logicalName, String groupName, String description, String vpcId,
                                List<IngressRule> ingress) {
    }

    /**
     * The brokers' launch template: the machine image ({@code imageId}) and the broker image its user data runs
     * ({@code brokerImage}), either null where no image could be had. {@code nodeSpec} is what the spec determines
     * (and {@code specVersion} hashes, with both images); the user data adds what only the cloud knows once the WAL
     * file systems exist, their NFS endpoints, so a plan and an apply agree on the version.
     */
    public record LaunchTemplate(String logicalName, String name, String imageId, String brokerImage,
                                 String instanceType, Map<String, Object> nodeSpec, String specVersion) {

        public LaunchTemplate {
            nodeSpec = Collections.unmodifiableMap(new LinkedHashMap<>(nodeSpec));
        }

        public String userDataBase64(List<NfsEndpoint> walNfsEndpoints) {
            Map<String, Object> spec = new LinkedHashMap<>(nodeSpec);
            if (!walNfsEndpoints.isEmpty()) {
                spec.put("walNfsEndpoints", walNfsEndpoints);
            }
            return Base64.getEncoder().encodeToString(BootScript.render(brokerImage, Json.write(spec))
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Where brokers mount a WAL file system from: its SVM's NFS DNS name and its volume's junction path. */
    public record NfsEndpoint(int index, String dnsName, String junctionPath) {
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

    /**
     * The paths the brokers' traffic must have out of their subnets: S3 through a gateway endpoint (per
     * {@code s3GatewayEndpoint}, created as {@code endpointLogicalName} with {@code clientToken} when Keel may), and
     * the EC2 (and, for FSWAL, FSx) APIs the agent calls, through an interface endpoint or a default route. The
     * VPC's other Keel instances have their brokers in {@code otherInstancesSubnets}: their route tables stay on
     * Keel's endpoint too.
     */
    public record NetworkPaths(S3GatewayEndpointMode s3GatewayEndpoint, String vpcId, List<String> subnetIds,
                               Set<String> otherInstancesSubnets, String s3ServiceName, List<String> apiServiceNames,
                               String endpointLogicalName, String clientToken) {
    }

    /** What the target does not say and configuration does. */
    public record Defaults(String ingestUrl, int walVolumeGiB, int fsxStorageGiB) {
        public static Defaults of(AwsProvisionerSettings settings) {
            return new Defaults(settings.defaultIngestUrl(), settings.walVolumeGiB(), settings.fsxStorageGiB());
        }
    }

    /** {@code boot}: what the brokers boot, chosen by the driver (null images where nothing depends on them). */
    public static DesiredState of(ProvisioningTarget target, Defaults defaults, BootImage boot) {
        if (target.zones() == null || target.zones().isEmpty()) {
            throw new ProvisioningException("NO_SUBNETS", "The instance names no subnets to place brokers in.", false);
        }
        UUID id = target.instanceId();
        String base = prefix(id);
        String partition = partition(target.region());
        Bucket data = new Bucket("data-bucket", base + "-data", null, tlsOnly(partition, base + "-data"),
                target.dataRetainedUntil());
        Bucket ops = new Bucket("ops-bucket", base + "-ops", 30, tlsOnly(partition, base + "-ops"), null);

        IamPolicy trust = new IamPolicy(List.of(new IamPolicy.Statement(null, "Allow",
                Map.of("Service", "ec2.amazonaws.com"), IamPolicy.actions("sts", "AssumeRole"), null, null)));
        BrokerRole role = new BrokerRole(base + "-broker", base + "-broker", IAM_PATH,
                BrokerBoundary.arn(target.account().roleArn()), trust, BROKER_POLICY_NAME,
                brokerPolicy(partition, List.of(data.name(), ops.name()), boot.brokerImage(),
                        target.account().awsAccountId()));

        List<IngressRule> rules = new ArrayList<>();
        rules.add(new IngressRule("tcp", KAFKA_PORT, KAFKA_PORT, Source.VPC_CIDR, "Kafka clients in the VPC"));
        rules.add(new IngressRule("tcp", CONTROLLER_PORT, CONTROLLER_PORT, Source.SELF, "KRaft controllers"));
        boolean secure = target.listenerSecurity() == ListenerSecurity.SASL_SSL;
        if (secure) {
            rules.add(new IngressRule("tcp", INTERNAL_PORT, INTERNAL_PORT, Source.SELF, "Kafka inter-broker (mutual TLS)"));
        }
        if (target.walType() == WalType.FSWAL) {
            for (int port : new int[]{111, 635, 2049, 4045, 4046}) {
                rules.add(new IngressRule("tcp", port, port, Source.SELF, "NFS to the WAL file systems"));
            }
        }
        SecurityGroup sg = new SecurityGroup("security-group", base + "-brokers",
                "Keel brokers of instance " + id, target.vpcId(), List.copyOf(rules));

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
        // Only on secure instances: a plaintext one's node spec (and so its spec version) stays what it was before
        // secure listeners existed, so its brokers are not replaced for a change they would not see.
        if (secure) {
            spec.put("listenerSecurity", ListenerSecurity.SASL_SSL.name());
            spec.put("internalPort", INTERNAL_PORT);
        }
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
        String specVersion = sha256(boot.machineImage() + "|" + boot.brokerImage() + "|" + target.instanceType() + "|"
                + Json.write(spec)).substring(0, 8);
        LaunchTemplate lt = new LaunchTemplate(LAUNCH_TEMPLATE_NAME, base + "-brokers", boot.machineImage(),
                boot.brokerImage(), target.instanceType(), spec, specVersion);

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
        String services = "com.amazonaws." + target.region() + ".";
        NetworkPaths paths = new NetworkPaths(target.s3GatewayEndpoint(), target.vpcId(),
                target.zones().stream().map(ProvisioningTarget.Zone::subnetId).toList(), target.otherInstancesSubnets(),
                services + "s3",
                // The agent finds its peers with ec2:DescribeInstances; it mounts FSx over NFS, within the VPC.
                List.of(services + "ec2"),
                S3_GATEWAY_ENDPOINT_NAME,
                // The instance's, not the VPC's: AWS answers a token it knows with the endpoint it made then, even one
                // deleted since with the VPC's last instance, which a later instance's create must not be handed.
                "keel-s3-" + id.toString().replace("-", ""));
        return new DesiredState(id, target.region(), partition, target.walType(), data, ops, role, sg, lt,
                List.copyOf(brokers), List.copyOf(volumes), List.copyOf(fileSystems), establishedNodes(target), paths);
    }

    private static Set<Integer> establishedNodes(ProvisioningTarget target) {
        return target.observed() == null ? Set.of() : target.observed().brokers().stream()
                .map(Inventory.Broker::nodeId).collect(Collectors.toUnmodifiableSet());
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

    /**
     * The brokers' access: list the two buckets, read and write their objects, and find the instance's other
     * brokers (the agent's peer directory; DescribeInstances has no resource-level permissions); and, when the
     * broker image is in a private ECR repository, pull it (below); nothing else.
     */
    static IamPolicy brokerPolicy(String partition, List<String> buckets, String brokerImage, String accountId) {
        List<String> bucketArns = buckets.stream().map(b -> "arn:" + partition + ":s3:::" + b).toList();
        List<String> objectArns = bucketArns.stream().map(arn -> arn + "/*").toList();
        List<IamPolicy.Statement> statements = new ArrayList<>(List.of(
                IamPolicy.Statement.allow("Buckets", IamPolicy.actions("s3", "ListBucket", "GetBucketLocation",
                        "ListBucketMultipartUploads"), bucketArns),
                IamPolicy.Statement.allow("Objects", IamPolicy.actions("s3", "GetObject", "PutObject", "DeleteObject",
                        "AbortMultipartUpload", "ListMultipartUploadParts"), objectArns),
                IamPolicy.Statement.allow("Peers", IamPolicy.actions("ec2", "DescribeInstances"), List.of("*"))));
        EcrRepository.of(brokerImage).ifPresent(ecr -> statements.addAll(ecrPull(ecr, accountId)));
        return new IamPolicy(List.copyOf(statements));
    }

    /**
     * Pulling the broker image from its ECR repository. GetAuthorizationToken (docker login) has no resource-level
     * permissions. When the repository is in the instance's own account it may be a pull-through cache, which needs
     * BatchImportUpstreamImage and CreateRepository when the pulled digest, or the cache repository itself, is not
     * there yet (a new broker version is a new digest): on this one repository's ARN they can only fill or create it,
     * and on a plain private repository they do nothing.
     */
    private static List<IamPolicy.Statement> ecrPull(EcrRepository ecr, String accountId) {
        List<String> pull = new ArrayList<>(IamPolicy.actions("ecr", "BatchGetImage", "GetDownloadUrlForLayer"));
        if (ecr.account().equals(accountId)) {
            pull.addAll(IamPolicy.actions("ecr", "BatchImportUpstreamImage", "CreateRepository"));
        }
        return List.of(
                IamPolicy.Statement.allow("EcrLogin", IamPolicy.actions("ecr", "GetAuthorizationToken"), List.of("*")),
                IamPolicy.Statement.allow("EcrPull", List.copyOf(pull), List.of(ecr.arn())));
    }

    /** A bucket policy refusing any request over plain HTTP. */
    static IamPolicy tlsOnly(String partition, String bucket) {
        String arn = "arn:" + partition + ":s3:::" + bucket;
        return new IamPolicy(List.of(new IamPolicy.Statement("TlsOnly", "Deny", "*", IamPolicy.actions("s3", "*"),
                List.of(arn, arn + "/*"), Map.of("Bool", Map.of("aws:SecureTransport", "false")))));
    }

    /** Eight hex digits of {@code value}'s SHA-256: enough to tell apart what a client token follows. */
    public static String shortHash(String value) {
        return sha256(value).substring(0, 8);
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

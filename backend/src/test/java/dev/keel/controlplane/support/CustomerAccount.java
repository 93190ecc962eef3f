package dev.keel.controlplane.support;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.InternetRoute;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.VolumeState;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.FileSystemLifecycle;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A customer's AWS account in LocalStack (and the FSx emulator): onboarded with the template the
 * API serves, deployed through CloudFormation, with a VPC of three subnets in three zones. Also the
 * independent eyes of the tests: it counts what exists with the account's own clients.
 */
public final class CustomerAccount {

    public static final String REGION = "us-east-1";
    private static final Pattern INSTANCE_ID =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final StaticCredentialsProvider ROOT =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

    private final Ec2Client ec2;
    private final S3Client s3;
    private final IamClient iam;
    private final FSxClient fsx;
    private final CloudFormationClient cloudFormation;
    public final String vpcId;
    public final List<String[]> subnets = new ArrayList<>();

    public CustomerAccount() {
        URI endpoint = URI.create(TestEnvironment.require("KEEL_AWS_ENDPOINT"));
        URI fsxEndpoint = URI.create(TestEnvironment.require("KEEL_FSX_ENDPOINT"));
        ec2 = Ec2Client.builder().endpointOverride(endpoint).region(Region.of(REGION)).credentialsProvider(ROOT).build();
        s3 = S3Client.builder().endpointOverride(endpoint).region(Region.of(REGION)).credentialsProvider(ROOT)
                .forcePathStyle(true).build();
        iam = IamClient.builder().endpointOverride(endpoint).region(Region.AWS_GLOBAL).credentialsProvider(ROOT).build();
        fsx = FSxClient.builder().endpointOverride(fsxEndpoint).region(Region.of(REGION)).credentialsProvider(ROOT).build();
        cloudFormation = CloudFormationClient.builder().endpointOverride(endpoint).region(Region.of(REGION))
                .credentialsProvider(ROOT).build();
        vpcId = ec2.createVpc(b -> b.cidrBlock("10.42.0.0/16")).vpc().vpcId();
        for (int i = 0; i < 3; i++) {
            String zone = REGION + (char) ('a' + i);
            // 4,091 addresses each: LocalStack gives back a terminated machine's address only when it forgets the
            // machine, so a long run (the chaos bench) would use up a /24.
            String cidr = "10.42." + (16 * i) + ".0/20";
            String subnet = ec2.createSubnet(b -> b.vpcId(vpcId).cidrBlock(cidr).availabilityZone(zone)).subnet().subnetId();
            subnets.add(new String[]{zone, subnet});
        }
        InternetRoute.addTo(ec2, vpcId);
    }

    /** A subnet in a VPC of its own (not the account's instance VPC); returns its id. */
    public String subnetInAnotherVpc(String zone) {
        String otherVpc = ec2.createVpc(b -> b.cidrBlock("10.43.0.0/16")).vpc().vpcId();
        return ec2.createSubnet(b -> b.vpcId(otherVpc).cidrBlock("10.43.0.0/24").availabilityZone(zone)).subnet().subnetId();
    }

    /** One more subnet of the account's instance VPC, in {@code zone}; returns its id. */
    public String extraSubnet(String zone) {
        String cidr = "10.42." + (100 + subnets.size()) + ".0/24";
        String subnet = ec2.createSubnet(b -> b.vpcId(vpcId).cidrBlock(cidr).availabilityZone(zone)).subnet().subnetId();
        subnets.add(new String[]{zone, subnet});
        return subnet;
    }

    /**
     * Gives a subnet a route table of its own with no route out (no default route, no endpoint) behind the control
     * plane's back; returns the route table's id.
     */
    public String isolateSubnet(String subnetId) {
        String table = ec2.createRouteTable(b -> b.vpcId(vpcId)).routeTable().routeTableId();
        ec2.associateRouteTable(b -> b.routeTableId(table).subnetId(subnetId));
        return table;
    }

    /** Deletes a subnet behind the control plane's back (AWS would wait for its network interfaces to go; LocalStack does not). */
    public void deleteSubnet(String subnetId) {
        ec2.deleteSubnet(b -> b.subnetId(subnetId));
    }

    /** Deploys the onboarding template through CloudFormation and returns the role ARN it outputs. */
    public String onboard(String template) {
        String stackName = "keel-onboarding-" + UUID.randomUUID().toString().substring(0, 8);
        cloudFormation.createStack(b -> b.stackName(stackName).templateBody(template)
                .capabilities(Capability.CAPABILITY_NAMED_IAM)
                .parameters(p -> p.parameterKey("RoleName").parameterValue(stackName)));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Stack stack = cloudFormation.describeStacks(b -> b.stackName(stackName)).stacks().getFirst();
            if (stack.stackStatus() == StackStatus.CREATE_COMPLETE) {
                return stack.outputs().stream().filter(o -> o.outputKey().equals("RoleArn")).findFirst()
                        .orElseThrow().outputValue();
            }
            if (stack.stackStatusAsString().contains("FAILED") || stack.stackStatusAsString().contains("ROLLBACK")) {
                throw new AssertionError("Onboarding stack failed: " + stack.stackStatusReason());
            }
            Pause.of(Duration.ofMillis(500));
        }
        throw new AssertionError("Onboarding stack not complete after 60 s");
    }

    public long runningBrokers(String instanceId) {
        return brokerMachines(instanceId).size();
    }

    /** The machines of the instance's brokers that are not terminated or shutting down, by EC2 instance id. */
    public Set<String> brokerMachines(String instanceId) {
        return ec2.describeInstancesPaginator(b -> b.filters(tagged(instanceId))).reservations().stream()
                .flatMap(r -> r.instances().stream())
                .filter(CustomerAccount::notGoing)
                .map(Instance::instanceId).collect(Collectors.toSet());
    }

    /** Terminates one of the instance's brokers behind the control plane's back; returns its {@code byoc:resource} name. */
    /** The machines of the instance's brokers that are not terminated or shutting down, by the node they are tagged with. */
    public Map<Integer, List<String>> brokerMachinesPerNode(String instanceId) {
        return ec2.describeInstancesPaginator(b -> b.filters(tagged(instanceId))).reservations().stream()
                .flatMap(r -> r.instances().stream())
                .filter(CustomerAccount::notGoing)
                .collect(Collectors.groupingBy(i -> Integer.parseInt(i.tags().stream()
                                .filter(t -> t.key().equals("byoc:node-id")).findFirst().orElseThrow().value()),
                        Collectors.mapping(Instance::instanceId, Collectors.toList())));
    }

    /**
     * What the account holds of every Keel instance at one moment, with one look per service: the machines and WAL
     * volumes of each node, the file systems and buckets of each instance, and Keel's S3 gateway endpoints in the VPC.
     * Machines shutting down and volumes, file systems or endpoints being deleted are no longer counted.
     */
    public Census census() {
        Map<String, Map<Integer, Integer>> machines = new TreeMap<>();
        ec2.describeInstancesPaginator(b -> b.filters(taggedWithAnInstance())).reservations().stream()
                .flatMap(r -> r.instances().stream())
                .filter(CustomerAccount::notGoing)
                .forEach(i -> countNode(machines, ec2Tags(i.tags())));
        Map<String, Map<Integer, Integer>> volumes = new TreeMap<>();
        ec2.describeVolumesPaginator(b -> b.filters(taggedWithAnInstance())).volumes().stream()
                .filter(v -> v.state() != VolumeState.DELETING && v.state() != VolumeState.DELETED)
                .forEach(v -> countNode(volumes, ec2Tags(v.tags())));
        Map<String, Integer> fileSystems = new TreeMap<>();
        fsx.describeFileSystemsPaginator(b -> { }).stream().flatMap(page -> page.fileSystems().stream())
                .filter(fs -> fs.lifecycle() != FileSystemLifecycle.DELETING)
                .flatMap(fs -> fs.tags().stream().filter(t -> t.key().equals(DesiredState.TAG_INSTANCE)))
                .map(software.amazon.awssdk.services.fsx.model.Tag::value)
                .forEach(instance -> fileSystems.merge(instance, 1, Integer::sum));
        Map<String, Integer> buckets = new TreeMap<>();
        s3.listBuckets().buckets().forEach(bucket -> {
            Matcher instance = INSTANCE_ID.matcher(bucket.name());
            if (instance.find()) {
                buckets.merge(instance.group(), 1, Integer::sum);
            }
        });
        int endpoints = ec2.describeVpcEndpoints(b -> b.filters(Filter.builder().name("vpc-id").values(vpcId).build(),
                        Filter.builder().name("tag:" + DesiredState.TAG_RESOURCE)
                                .values(DesiredState.S3_GATEWAY_ENDPOINT_NAME).build())).vpcEndpoints().stream()
                // LocalStack spells the states in lower case, which the SDK's enum does not know.
                .filter(e -> !List.of("deleted", "deleting").contains(e.stateAsString().toLowerCase(Locale.ROOT)))
                .toList().size();
        return new Census(machines, volumes, fileSystems, buckets, endpoints);
    }

    /**
     * One look at the account: per instance id, the machines and the WAL volumes of each node, the file systems, the
     * buckets; and how many S3 gateway endpoints Keel has in the VPC.
     */
    public record Census(Map<String, Map<Integer, Integer>> machinesPerNode,
                         Map<String, Map<Integer, Integer>> volumesPerNode, Map<String, Integer> fileSystems,
                         Map<String, Integer> buckets, int keelS3Endpoints) {
    }

    private static void countNode(Map<String, Map<Integer, Integer>> counts, Map<String, String> tags) {
        String node = tags.get(DesiredState.TAG_NODE);
        if (node != null) {
            counts.computeIfAbsent(tags.get(DesiredState.TAG_INSTANCE), k -> new TreeMap<>())
                    .merge(Integer.parseInt(node), 1, Integer::sum);
        }
    }

    /** Whether the machine is neither terminated nor on its way there. */
    private static boolean notGoing(Instance machine) {
        InstanceStateName state = machine.state().name();
        return state != InstanceStateName.TERMINATED && state != InstanceStateName.SHUTTING_DOWN;
    }

    private static Map<String, String> ec2Tags(List<Tag> tags) {
        return tags.stream().collect(Collectors.toMap(Tag::key, Tag::value));
    }

    private static Filter taggedWithAnInstance() {
        return Filter.builder().name("tag-key").values(DesiredState.TAG_INSTANCE).build();
    }

    public String terminateOneBroker(String instanceId) {
        var broker = ec2.describeInstances(b -> b.filters(tagged(instanceId))).reservations().stream()
                .flatMap(r -> r.instances().stream())
                .filter(i -> i.state().name() == InstanceStateName.RUNNING)
                .findFirst().orElseThrow();
        ec2.terminateInstances(b -> b.instanceIds(broker.instanceId()));
        return broker.tags().stream().filter(t -> t.key().equals("byoc:resource")).findFirst().orElseThrow().value();
    }

    public long fileSystems(String instanceId) {
        return fsx.describeFileSystemsPaginator(b -> { }).stream().flatMap(page -> page.fileSystems().stream())
                .filter(fs -> fs.tags().stream().anyMatch(t -> t.key().equals("byoc:instance-id") && t.value().equals(instanceId)))
                .count();
    }

    /** Everything in the account that carries the instance's tag or name, across services. */
    public List<String> leftovers(String instanceId) {
        List<String> found = new ArrayList<>();
        if (runningBrokers(instanceId) > 0) {
            found.add(runningBrokers(instanceId) + " EC2 instances");
        }
        ec2.describeVolumes(b -> b.filters(tagged(instanceId))).volumes().forEach(v -> found.add("volume " + v.volumeId()));
        ec2.describeSecurityGroups(b -> b.filters(tagged(instanceId))).securityGroups()
                .forEach(g -> found.add("security group " + g.groupId()));
        ec2.describeLaunchTemplates(b -> b.filters(tagged(instanceId))).launchTemplates()
                .forEach(t -> found.add("launch template " + t.launchTemplateId()));
        s3.listBuckets().buckets().stream().filter(bucket -> bucket.name().contains(instanceId))
                .forEach(bucket -> found.add("bucket " + bucket.name()));
        iam.listRoles().roles().stream().filter(role -> role.roleName().contains(instanceId))
                .forEach(role -> found.add("role " + role.roleName()));
        iam.listInstanceProfiles().instanceProfiles().stream().filter(p -> p.instanceProfileName().contains(instanceId))
                .forEach(p -> found.add("instance profile " + p.instanceProfileName()));
        if (fileSystems(instanceId) > 0) {
            found.add(fileSystems(instanceId) + " FSx file systems");
        }
        return found;
    }

    /**
     * What a delete that keeps the instance's data leaves besides it: {@link #leftovers} but the data bucket, when that
     * bucket carries the tag saying when its retention ends.
     */
    public List<String> leftoversBesideKeptData(String instanceId) {
        boolean kept = dataRetainedUntil(instanceId) != null;
        return leftovers(instanceId).stream()
                .filter(found -> !(kept && found.equals("bucket keel-" + instanceId + "-data"))).toList();
    }

    /** The data bucket's {@code byoc:retain-until} tag; null when it has none or there is no such bucket. */
    public String dataRetainedUntil(String instanceId) {
        try {
            return s3.getBucketTagging(b -> b.bucket("keel-" + instanceId + "-data")).tagSet().stream()
                    .filter(t -> t.key().equals("byoc:retain-until")).map(t -> t.value()).findFirst().orElse(null);
        } catch (S3Exception e) {
            return null;
        }
    }

    private static Filter tagged(String instanceId) {
        return Filter.builder().name("tag:byoc:instance-id").values(instanceId).build();
    }
}

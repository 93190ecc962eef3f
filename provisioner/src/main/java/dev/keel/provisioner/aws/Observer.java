package dev.keel.provisioner.aws;

import static dev.keel.provisioner.aws.DesiredState.TAG_INSTANCE;
import static dev.keel.provisioner.aws.DesiredState.TAG_NODE;
import static dev.keel.provisioner.aws.DesiredState.TAG_RESOURCE;
import static dev.keel.provisioner.aws.DesiredState.TAG_SPEC_VERSION;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.fsx.model.FileSystem;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;

/** Read-only: finds an instance's resources by tag (EC2, FSx) and by deterministic name (IAM, S3). */
final class Observer {

    private Observer() {
    }

    static ObservedState observe(AwsClients.Customer aws, UUID instanceId, boolean includeFsx) {
        List<ObservedState.Resource> found = new ArrayList<>();
        found.addAll(instances(aws, instanceId, false));
        found.addAll(volumes(aws, instanceId));
        found.addAll(securityGroups(aws, instanceId));
        found.addAll(launchTemplates(aws, instanceId));
        found.addAll(iam(aws, instanceId));
        found.addAll(buckets(aws, instanceId));
        if (includeFsx) {
            found.addAll(fsx(aws, instanceId));
        }
        return new ObservedState(found);
    }

    static Filter byInstance(UUID instanceId) {
        return Filter.builder().name("tag:" + TAG_INSTANCE).values(instanceId.toString()).build();
    }

    /** Instances not yet terminated ({@code withTerminated}: all, to count earlier generations). */
    static List<ObservedState.Resource> instances(AwsClients.Customer aws, UUID instanceId, boolean withTerminated) {
        List<Filter> filters = new ArrayList<>(List.of(byInstance(instanceId)));
        if (!withTerminated) {
            filters.add(Filter.builder().name("instance-state-name")
                    .values("pending", "running", "shutting-down", "stopping", "stopped").build());
        }
        List<ObservedState.Resource> out = new ArrayList<>();
        AwsCalls.call("ec2:DescribeInstances", () -> aws.ec2().describeInstancesPaginator(b -> b.filters(filters))
                .reservations().stream().flatMap(r -> r.instances().stream()).toList())
                .forEach(i -> out.add(instance(i)));
        return out;
    }

    private static ObservedState.Resource instance(Instance i) {
        Map<String, String> tags = tags(i.tags());
        Map<String, String> attrs = new HashMap<>();
        attrs.put("state", i.state().nameAsString());
        put(attrs, "availabilityZone", i.placement() == null ? null : i.placement().availabilityZone());
        put(attrs, "privateIp", i.privateIpAddress());
        put(attrs, "subnetId", i.subnetId());
        put(attrs, "nodeId", tags.get(TAG_NODE));
        put(attrs, "specVersion", tags.get(TAG_SPEC_VERSION));
        return new ObservedState.Resource(ObservedState.EC2_INSTANCE, tags.getOrDefault(TAG_RESOURCE, "?"),
                i.instanceId(), attrs);
    }

    static List<ObservedState.Resource> volumes(AwsClients.Customer aws, UUID instanceId) {
        return AwsCalls.call("ec2:DescribeVolumes", () -> aws.ec2().describeVolumesPaginator(b -> b
                .filters(byInstance(instanceId))).volumes().stream().map(v -> {
                    Map<String, String> tags = tags(v.tags());
                    Map<String, String> attrs = new HashMap<>();
                    attrs.put("state", v.stateAsString());
                    put(attrs, "availabilityZone", v.availabilityZone());
                    put(attrs, "nodeId", tags.get(TAG_NODE));
                    v.attachments().stream()
                            .filter(a -> "attached".equals(a.stateAsString()) || "attaching".equals(a.stateAsString()))
                            .findFirst().ifPresent(a -> attrs.put("attachedTo", a.instanceId()));
                    String logical = tags.getOrDefault(TAG_RESOURCE, "?");
                    String type = logical.startsWith("wal-volume-") ? ObservedState.EBS_VOLUME : "ebs-root-volume";
                    return new ObservedState.Resource(type, logical, v.volumeId(), attrs);
                }).toList());
    }

    static List<ObservedState.Resource> securityGroups(AwsClients.Customer aws, UUID instanceId) {
        return AwsCalls.call("ec2:DescribeSecurityGroups", () -> aws.ec2().describeSecurityGroupsPaginator(b -> b
                .filters(byInstance(instanceId))).securityGroups().stream()
                .map(g -> new ObservedState.Resource(ObservedState.SECURITY_GROUP,
                        tags(g.tags()).getOrDefault(TAG_RESOURCE, "?"), g.groupId(),
                        Map.of("vpcId", String.valueOf(g.vpcId()), "groupName", g.groupName())))
                .toList());
    }

    /** How each launch template version describes itself: {@code spec <version>}. */
    static final String SPEC_PREFIX = "spec ";

    static List<ObservedState.Resource> launchTemplates(AwsClients.Customer aws, UUID instanceId) {
        return AwsCalls.call("ec2:DescribeLaunchTemplates", () -> aws.ec2().describeLaunchTemplatesPaginator(b -> b
                .filters(byInstance(instanceId))).launchTemplates().stream()
                .map(t -> {
                    Map<String, String> tags = tags(t.tags());
                    Map<String, String> attrs = new HashMap<>();
                    attrs.put("name", t.launchTemplateName());
                    put(attrs, "specVersion", defaultSpecVersion(aws, t.launchTemplateId()));
                    put(attrs, "defaultVersion", String.valueOf(t.defaultVersionNumber()));
                    return new ObservedState.Resource(ObservedState.LAUNCH_TEMPLATE,
                            tags.getOrDefault(TAG_RESOURCE, "?"), t.launchTemplateId(), attrs);
                }).toList());
    }

    /**
     * The spec version new brokers boot with: the default version's description ({@code spec <v>},
     * written with each version). A tag would be a second copy to keep in step, and not every EC2
     * implementation reports a tag changed after creation.
     */
    private static String defaultSpecVersion(AwsClients.Customer aws, String launchTemplateId) {
        return AwsCalls.call("ec2:DescribeLaunchTemplateVersions", () -> aws.ec2().describeLaunchTemplateVersions(b -> b
                        .launchTemplateId(launchTemplateId).versions("$Default")).launchTemplateVersions())
                .stream().findFirst().map(v -> v.versionDescription())
                .filter(d -> d != null && d.startsWith(SPEC_PREFIX)).map(d -> d.substring(SPEC_PREFIX.length()))
                .orElse(null);
    }

    static List<ObservedState.Resource> iam(AwsClients.Customer aws, UUID instanceId) {
        String name = DesiredState.prefix(instanceId) + "-broker";
        List<ObservedState.Resource> out = new ArrayList<>();
        try {
            var role = AwsCalls.call("iam:GetRole", () -> aws.iam().getRole(b -> b.roleName(name)).role());
            out.add(new ObservedState.Resource(ObservedState.IAM_ROLE, "broker-role", role.roleName(),
                    Map.of("arn", role.arn())));
        } catch (dev.keel.provisioner.ProvisioningException e) {
            if (!(e.getCause() instanceof NoSuchEntityException)) {
                throw e;
            }
        }
        try {
            var profile = AwsCalls.call("iam:GetInstanceProfile",
                    () -> aws.iam().getInstanceProfile(b -> b.instanceProfileName(name)).instanceProfile());
            out.add(new ObservedState.Resource(ObservedState.IAM_INSTANCE_PROFILE, "broker-instance-profile",
                    profile.instanceProfileName(), Map.of("roles", String.join(",",
                    profile.roles().stream().map(r -> r.roleName()).toList()))));
        } catch (dev.keel.provisioner.ProvisioningException e) {
            if (!(e.getCause() instanceof NoSuchEntityException)) {
                throw e;
            }
        }
        return out;
    }

    static List<ObservedState.Resource> buckets(AwsClients.Customer aws, UUID instanceId) {
        List<ObservedState.Resource> out = new ArrayList<>();
        String prefix = DesiredState.prefix(instanceId);
        for (String logical : List.of("data-bucket", "ops-bucket")) {
            String name = prefix + (logical.equals("data-bucket") ? "-data" : "-ops");
            if (S3Ops.exists(aws, name)) {
                out.add(new ObservedState.Resource(ObservedState.S3_BUCKET, logical, name, Map.of()));
            }
        }
        return out;
    }

    static List<ObservedState.Resource> fsx(AwsClients.Customer aws, UUID instanceId) {
        List<ObservedState.Resource> out = new ArrayList<>();
        String id = instanceId.toString();
        List<FileSystem> fileSystems = AwsCalls.call("fsx:DescribeFileSystems", () -> aws.fsx()
                .describeFileSystemsPaginator(b -> b.build()).stream().flatMap(p -> p.fileSystems().stream())
                .filter(f -> id.equals(fsxTags(f.tags()).get(TAG_INSTANCE))).toList());
        for (FileSystem f : fileSystems) {
            Map<String, String> attrs = new HashMap<>();
            attrs.put("lifecycle", f.lifecycleAsString());
            if (f.ontapConfiguration() != null && f.ontapConfiguration().throughputCapacity() != null) {
                attrs.put("throughputMBps", f.ontapConfiguration().throughputCapacity().toString());
            }
            put(attrs, "dnsName", f.dnsName());
            out.add(new ObservedState.Resource(ObservedState.FSX_FILE_SYSTEM,
                    fsxTags(f.tags()).getOrDefault(TAG_RESOURCE, "?"), f.fileSystemId(), attrs));
        }
        if (fileSystems.isEmpty()) {
            return out;
        }
        List<String> ids = fileSystems.stream().map(FileSystem::fileSystemId).toList();
        AwsCalls.call("fsx:DescribeStorageVirtualMachines", () -> aws.fsx().describeStorageVirtualMachinesPaginator(b -> b
                .filters(f -> f.name("file-system-id").values(ids))).storageVirtualMachines().stream().toList())
                .forEach(s -> {
                    Map<String, String> attrs = new HashMap<>(Map.of("lifecycle", s.lifecycleAsString(),
                            "fileSystemId", s.fileSystemId(), "name", s.name()));
                    if (s.endpoints() != null && s.endpoints().nfs() != null) {
                        put(attrs, "nfsDnsName", s.endpoints().nfs().dnsName());
                    }
                    out.add(new ObservedState.Resource(ObservedState.FSX_SVM,
                            fsxTags(s.tags()).getOrDefault(TAG_RESOURCE, "?"), s.storageVirtualMachineId(), attrs));
                });
        AwsCalls.call("fsx:DescribeVolumes", () -> aws.fsx().describeVolumesPaginator(b -> b
                .filters(f -> f.name("file-system-id").values(ids))).volumes().stream()
                .filter(v -> v.ontapConfiguration() == null
                        || !Boolean.TRUE.equals(v.ontapConfiguration().storageVirtualMachineRoot()))
                .toList())
                .forEach(v -> {
                    Map<String, String> attrs = new HashMap<>(Map.of("lifecycle", v.lifecycleAsString(),
                            "fileSystemId", v.fileSystemId(), "name", v.name()));
                    if (v.ontapConfiguration() != null) {
                        put(attrs, "junctionPath", v.ontapConfiguration().junctionPath());
                    }
                    out.add(new ObservedState.Resource(ObservedState.FSX_VOLUME,
                            fsxTags(v.tags()).getOrDefault(TAG_RESOURCE, "?"), v.volumeId(), attrs));
                });
        return out;
    }

    static Map<String, String> tags(List<Tag> tags) {
        Map<String, String> out = new LinkedHashMap<>();
        if (tags != null) {
            tags.forEach(t -> out.put(t.key(), t.value()));
        }
        return out;
    }

    static Map<String, String> fsxTags(List<software.amazon.awssdk.services.fsx.model.Tag> tags) {
        Map<String, String> out = new LinkedHashMap<>();
        if (tags != null) {
            tags.forEach(t -> out.put(t.key(), t.value()));
        }
        return out;
    }

    private static void put(Map<String, String> attrs, String key, String value) {
        if (value != null) {
            attrs.put(key, value);
        }
    }
}

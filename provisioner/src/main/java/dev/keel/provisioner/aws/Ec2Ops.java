package dev.keel.provisioner.aws;

import static dev.keel.provisioner.aws.DesiredState.TAG_RESOURCE;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.aws.ObservedState.Resource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.IpPermission;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.ec2.model.TagSpecification;
import software.amazon.awssdk.services.ec2.model.VolumeType;

/** Security group, launch template, broker instances and their EBS WAL volumes. */
final class Ec2Ops {

    private Ec2Ops() {
    }

    private static TagSpecification tagSpec(ResourceType type, Map<String, String> tags) {
        return TagSpecification.builder().resourceType(type).tags(StepContext.ec2Tags(tags)).build();
    }

    private static Filter filter(String name, String... values) {
        return Filter.builder().name(name).values(values).build();
    }

    // ---- security group ----

    static Optional<SecurityGroup> findSecurityGroup(StepContext ctx) {
        var sg = ctx.desired().securityGroup();
        return AwsCalls.call("ec2:DescribeSecurityGroups", () -> ctx.aws().ec2().describeSecurityGroups(b -> b
                .filters(Observer.byInstance(ctx.target().instanceId()),
                        filter("tag:" + TAG_RESOURCE, sg.logicalName()))).securityGroups().stream().findFirst());
    }

    static String ensureSecurityGroup(StepContext ctx) {
        var ec2 = ctx.aws().ec2();
        var desired = ctx.desired().securityGroup();
        SecurityGroup group = findSecurityGroup(ctx).orElse(null);
        if (group == null) {
            try {
                String id = ec2.createSecurityGroup(b -> b.groupName(desired.groupName())
                        .description(desired.description()).vpcId(desired.vpcId())
                        .tagSpecifications(tagSpec(ResourceType.SECURITY_GROUP,
                                ctx.desired().tags(desired.logicalName())))).groupId();
                ctx.await("security group " + id + " to be visible", () -> findSecurityGroup(ctx).isPresent());
            } catch (SdkException e) {
                if (!AwsCalls.hasCode(e, "InvalidGroup.Duplicate")) {
                    throw AwsCalls.classify("ec2:CreateSecurityGroup", e);
                }
                // Same name in the VPC but not found by tags: only possible if its tags were removed.
                throw new ProvisioningException("SECURITY_GROUP_UNTAGGED", "A security group named "
                        + desired.groupName() + " exists in " + desired.vpcId()
                        + " without Keel's tags; remove it or restore its byoc:* tags.", false);
            }
            group = findSecurityGroup(ctx).orElseThrow();
        }
        String groupId = group.groupId();
        String vpcCidr = AwsCalls.call("ec2:DescribeVpcs", () -> ec2.describeVpcs(b -> b.vpcIds(desired.vpcId()))
                .vpcs().getFirst().cidrBlock());
        List<IpPermission> missing = new ArrayList<>();
        for (DesiredState.IngressRule rule : desired.ingress()) {
            if (!hasRule(group, rule, vpcCidr)) {
                IpPermission.Builder p = IpPermission.builder().ipProtocol(rule.protocol()).fromPort(rule.fromPort())
                        .toPort(rule.toPort());
                if (rule.source() == DesiredState.Source.VPC_CIDR) {
                    p.ipRanges(r -> r.cidrIp(vpcCidr).description(rule.description()));
                } else {
                    p.userIdGroupPairs(g -> g.groupId(groupId).description(rule.description()));
                }
                missing.add(p.build());
            }
        }
        if (!missing.isEmpty()) {
            try {
                ec2.authorizeSecurityGroupIngress(b -> b.groupId(groupId).ipPermissions(missing));
            } catch (SdkException e) {
                if (!AwsCalls.hasCode(e, "InvalidPermission.Duplicate")) {
                    throw AwsCalls.classify("ec2:AuthorizeSecurityGroupIngress", e);
                }
            }
        }
        return groupId;
    }

    private static boolean hasRule(SecurityGroup group, DesiredState.IngressRule rule, String vpcCidr) {
        return group.ipPermissions().stream().anyMatch(p -> rule.protocol().equals(p.ipProtocol())
                && Integer.valueOf(rule.fromPort()).equals(p.fromPort()) && Integer.valueOf(rule.toPort()).equals(p.toPort())
                && (rule.source() == DesiredState.Source.VPC_CIDR
                ? p.ipRanges().stream().anyMatch(r -> vpcCidr.equals(r.cidrIp()))
                : p.userIdGroupPairs().stream().anyMatch(g -> group.groupId().equals(g.groupId()))));
    }

    static void deleteSecurityGroups(StepContext ctx) {
        var ec2 = ctx.aws().ec2();
        for (Resource sg : Observer.securityGroups(ctx.aws(), ctx.target().instanceId())) {
            // ENIs of just-terminated instances can hold the group for a while: retry DependencyViolation.
            ctx.await("security group " + sg.id() + " to be deletable", () -> {
                try {
                    ec2.deleteSecurityGroup(b -> b.groupId(sg.id()));
                    return true;
                } catch (SdkException e) {
                    if (AwsCalls.hasCode(e, "InvalidGroup.NotFound")) {
                        return true;
                    }
                    if (AwsCalls.hasCode(e, "DependencyViolation")) {
                        return false;
                    }
                    throw AwsCalls.classify("ec2:DeleteSecurityGroup", e);
                }
            });
        }
        ctx.await("security groups to be gone",
                () -> Observer.securityGroups(ctx.aws(), ctx.target().instanceId()).isEmpty());
    }

    // ---- launch template ----

    static void ensureLaunchTemplate(StepContext ctx) {
        var lt = ctx.desired().launchTemplate();
        if (lt.imageId() == null || lt.imageId().isBlank()) {
            throw new ProvisioningException("NO_BROKER_IMAGE", "No broker image (AMI id) is configured for AutoMQ "
                    + ctx.target().brokerVersion() + "; images are configured for "
                    + new TreeSet<>(ctx.settings().brokerImages().keySet()) + ".", false);
        }
        String groupId = findSecurityGroup(ctx).map(SecurityGroup::groupId).orElseThrow(() ->
                new ProvisioningException("NO_SECURITY_GROUP", "The security group must exist before the launch "
                        + "template; run create-security-group first.", true));
        var ec2 = ctx.aws().ec2();
        var data = software.amazon.awssdk.services.ec2.model.RequestLaunchTemplateData.builder()
                .imageId(lt.imageId()).instanceType(lt.instanceType())
                .iamInstanceProfile(p -> p.name(ctx.desired().role().profileName()))
                .securityGroupIds(groupId)
                .userData(lt.userDataBase64(FsxOps.nfsEndpoints(ctx)))
                .metadataOptions(m -> m.httpTokens("required").instanceMetadataTags("enabled"))
                .tagSpecifications(
                        software.amazon.awssdk.services.ec2.model.LaunchTemplateTagSpecificationRequest.builder()
                                .resourceType(ResourceType.INSTANCE).tags(StepContext.ec2Tags(ctx.desired()
                                        .tags("broker"))).build())
                .build();
        Optional<Resource> existing = Observer.launchTemplates(ctx.aws(), ctx.target().instanceId()).stream()
                .filter(r -> r.logicalName().equals(lt.logicalName())).findFirst();
        Map<String, String> tags = ctx.desired().tags(lt.logicalName());
        if (existing.isEmpty()) {
            try {
                ec2.createLaunchTemplate(b -> b.launchTemplateName(lt.name()).versionDescription(Observer.SPEC_PREFIX
                                + lt.specVersion()).launchTemplateData(data)
                        .clientToken(lt.name() + "-" + lt.specVersion())
                        .tagSpecifications(tagSpec(ResourceType.LAUNCH_TEMPLATE, tags)));
            } catch (SdkException e) {
                if (!AwsCalls.hasCode(e, "InvalidLaunchTemplateName.AlreadyExistsException")) {
                    throw AwsCalls.classify("ec2:CreateLaunchTemplate", e);
                }
                throw new ProvisioningException("LAUNCH_TEMPLATE_UNTAGGED", "A launch template named " + lt.name()
                        + " exists without Keel's tags; remove it or restore its byoc:* tags.", false);
            }
            ctx.await("launch template to be visible", () -> Observer.launchTemplates(ctx.aws(),
                    ctx.target().instanceId()).stream().anyMatch(r -> r.logicalName().equals(lt.logicalName())));
        } else if (!lt.specVersion().equals(existing.get().attribute("specVersion"))) {
            String id = existing.get().id();
            Long version = AwsCalls.call("ec2:CreateLaunchTemplateVersion", () -> ec2.createLaunchTemplateVersion(b -> b
                    .launchTemplateId(id).versionDescription(Observer.SPEC_PREFIX + lt.specVersion()).launchTemplateData(data)
                    .clientToken(lt.name() + "-" + lt.specVersion())).launchTemplateVersion().versionNumber());
            AwsCalls.run("ec2:ModifyLaunchTemplate", () -> ec2.modifyLaunchTemplate(b -> b.launchTemplateId(id)
                    .defaultVersion(version.toString())));
        }
    }

    static void deleteLaunchTemplates(StepContext ctx) {
        for (Resource lt : Observer.launchTemplates(ctx.aws(), ctx.target().instanceId())) {
            try {
                ctx.aws().ec2().deleteLaunchTemplate(b -> b.launchTemplateId(lt.id()));
            } catch (SdkException e) {
                if (!AwsCalls.hasCode(e, "InvalidLaunchTemplateId.NotFound", "InvalidLaunchTemplateId.Malformed")) {
                    throw AwsCalls.classify("ec2:DeleteLaunchTemplate", e);
                }
            }
        }
        ctx.await("launch templates to be gone",
                () -> Observer.launchTemplates(ctx.aws(), ctx.target().instanceId()).isEmpty());
    }

    // ---- brokers ----

    private static boolean alive(Resource instance) {
        String state = instance.attribute("state");
        return !"terminated".equals(state) && !"shutting-down".equals(state);
    }

    static void launchBrokers(StepContext ctx) {
        var ec2 = ctx.aws().ec2();
        String templateId = Observer.launchTemplates(ctx.aws(), ctx.target().instanceId()).stream()
                .filter(r -> r.logicalName().equals(ctx.desired().launchTemplate().logicalName())).findFirst()
                .map(Resource::id).orElseThrow(() -> new ProvisioningException("NO_LAUNCH_TEMPLATE",
                        "The launch template must exist before brokers launch; run create-launch-template first.",
                        true));
        List<Resource> all = Observer.instances(ctx.aws(), ctx.target().instanceId(), true);
        for (DesiredState.Broker broker : ctx.desired().brokers()) {
            List<Resource> mine = all.stream().filter(r -> r.logicalName().equals(broker.logicalName())).toList();
            Resource live = mine.stream().filter(Ec2Ops::alive).findFirst().orElse(null);
            if (live != null && ctx.target().impairedBrokers().contains(live.id())) {
                // Its agent went silent: the machine is lost to us even if EC2 calls it running. The
                // replacement takes the node id (and its WAL volume, in attach-wal-volumes); it has a
                // new id, so a resumed step leaves it alone.
                terminate(ctx, List.of(live.id()));
                live = null;
            }
            if (live != null) {
                if ("stopped".equals(live.attribute("state"))) {
                    String id = live.id();
                    AwsCalls.run("ec2:StartInstances", () -> ec2.startInstances(b -> b.instanceIds(id)));
                }
                continue;
            }
            // A node replaced after termination needs a fresh token: the old one would return the dead instance.
            long generation = mine.size();
            String token = generation == 0 ? broker.clientToken() : broker.clientToken() + "-g" + generation;
            var tags = ctx.desired().brokerTags(broker.nodeId(), broker.logicalName());
            var rootTags = ctx.desired().tags("root-volume-" + broker.nodeId());
            AwsCalls.call("ec2:RunInstances", () -> ec2.runInstances(b -> b
                    .launchTemplate(t -> t.launchTemplateId(templateId).version("$Default"))
                    .minCount(1).maxCount(1).subnetId(broker.subnetId()).clientToken(token)
                    .tagSpecifications(tagSpec(ResourceType.INSTANCE, tags), tagSpec(ResourceType.VOLUME, rootTags)))
                    .instances().getFirst().instanceId());
        }
        awaitBrokersRunning(ctx);
    }

    static List<Resource> awaitBrokersRunning(StepContext ctx) {
        List<Resource>[] last = new List[1];
        ctx.await("brokers to be running with private addresses", () -> {
            List<Resource> live = Observer.instances(ctx.aws(), ctx.target().instanceId(), false);
            last[0] = live;
            return ctx.desired().brokers().stream().allMatch(b -> live.stream().anyMatch(r ->
                    r.logicalName().equals(b.logicalName()) && "running".equals(r.attribute("state"))
                            && r.attribute("privateIp") != null));
        });
        return last[0];
    }

    /** Scale-down: the surplus brokers (drained by the control plane's step before this one) terminated and awaited. */
    static void retireSurplusBrokers(StepContext ctx) {
        int count = ctx.target().brokerCount();
        List<Resource> surplus = Observer.instances(ctx.aws(), ctx.target().instanceId(), false).stream()
                .filter(r -> Planner.nodeId(r) >= count || Planner.nodeId(r) < 0).toList();
        terminate(ctx, surplus.stream().map(Resource::id).toList());
        for (Resource volume : Observer.volumes(ctx.aws(), ctx.target().instanceId())) {
            if (ObservedState.EBS_VOLUME.equals(volume.type()) && Planner.nodeId(volume) >= count) {
                deleteVolume(ctx, volume);
            }
        }
    }

    static void terminateAll(StepContext ctx) {
        List<String> ids = Observer.instances(ctx.aws(), ctx.target().instanceId(), false).stream()
                .map(Resource::id).toList();
        terminate(ctx, ids);
    }

    private static void terminate(StepContext ctx, List<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            ctx.aws().ec2().terminateInstances(b -> b.instanceIds(ids));
        } catch (SdkException e) {
            if (!AwsCalls.hasCode(e, "InvalidInstanceID.NotFound")) {
                throw AwsCalls.classify("ec2:TerminateInstances", e);
            }
        }
        ctx.await("instances " + ids + " to be terminated", () -> Observer.instances(ctx.aws(),
                ctx.target().instanceId(), false).stream().noneMatch(r -> ids.contains(r.id())));
    }

    // ---- EBS WAL volumes ----

    static void attachWalVolumes(StepContext ctx) {
        var ec2 = ctx.aws().ec2();
        List<Resource> brokers = Observer.instances(ctx.aws(), ctx.target().instanceId(), false);
        for (DesiredState.WalVolume wal : ctx.desired().walVolumes()) {
            Resource volume = findVolume(ctx, wal.logicalName()).orElse(null);
            if (volume == null) {
                var tags = ctx.desired().tags(wal.logicalName());
                tags.put(DesiredState.TAG_NODE, Integer.toString(wal.nodeId()));
                AwsCalls.call("ec2:CreateVolume", () -> ec2.createVolume(b -> b.availabilityZone(wal.availabilityZone())
                        .size(wal.sizeGiB()).volumeType(VolumeType.fromValue(wal.volumeType())).encrypted(true)
                        .clientToken(wal.clientToken())
                        .tagSpecifications(tagSpec(ResourceType.VOLUME, tags))));
                ctx.await(wal.logicalName() + " to be available", () -> findVolume(ctx, wal.logicalName())
                        .map(v -> "available".equals(v.attribute("state"))).orElse(false));
                volume = findVolume(ctx, wal.logicalName()).orElseThrow();
            }
            Resource broker = brokers.stream().filter(b -> b.logicalName().equals(DesiredState.brokerName(wal.nodeId()))
                    && "running".equals(b.attribute("state"))).findFirst().orElseThrow(() -> new ProvisioningException(
                    "BROKER_NOT_RUNNING", DesiredState.brokerName(wal.nodeId())
                    + " is not running yet; its WAL volume is attached once it is.", true));
            if (broker.id().equals(volume.attribute("attachedTo"))) {
                continue;
            }
            String volumeId = volume.id();
            if (volume.attribute("attachedTo") != null) {
                throw new ProvisioningException("WAL_VOLUME_ATTACHED_ELSEWHERE", wal.logicalName() + " ("
                        + volumeId + ") is attached to " + volume.attribute("attachedTo") + ", not to "
                        + broker.id() + "; the step will retry once it is released.", true);
            }
            try {
                ec2.attachVolume(b -> b.volumeId(volumeId).instanceId(broker.id()).device(wal.device()));
            } catch (SdkException e) {
                throw AwsCalls.classify("ec2:AttachVolume", e);
            }
            ctx.await(wal.logicalName() + " to be attached", () -> findVolume(ctx, wal.logicalName())
                    .map(v -> broker.id().equals(v.attribute("attachedTo"))).orElse(false));
        }
    }

    private static Optional<Resource> findVolume(StepContext ctx, String logicalName) {
        return Observer.volumes(ctx.aws(), ctx.target().instanceId()).stream()
                .filter(v -> v.logicalName().equals(logicalName)).findFirst();
    }

    static void deleteAllVolumes(StepContext ctx) {
        for (Resource volume : Observer.volumes(ctx.aws(), ctx.target().instanceId())) {
            deleteVolume(ctx, volume);
        }
        ctx.await("volumes to be gone", () -> Observer.volumes(ctx.aws(), ctx.target().instanceId()).isEmpty());
    }

    private static void deleteVolume(StepContext ctx, Resource volume) {
        var ec2 = ctx.aws().ec2();
        if (volume.attribute("attachedTo") != null) {
            try {
                ec2.detachVolume(b -> b.volumeId(volume.id()).force(true));
            } catch (SdkException e) {
                if (!AwsCalls.hasCode(e, "IncorrectState", "InvalidAttachment.NotFound", "InvalidVolume.NotFound")) {
                    throw AwsCalls.classify("ec2:DetachVolume", e);
                }
            }
        }
        ctx.await("volume " + volume.id() + " to be deleted", () -> {
            try {
                ec2.deleteVolume(b -> b.volumeId(volume.id()));
                return true;
            } catch (SdkException e) {
                if (AwsCalls.hasCode(e, "InvalidVolume.NotFound")) {
                    return true;
                }
                if (AwsCalls.hasCode(e, "VolumeInUse", "IncorrectState")) {
                    return false;
                }
                throw AwsCalls.classify("ec2:DeleteVolume", e);
            }
        });
    }
}

package dev.keel.provisioner.aws.resources;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.IpPermission;
import software.amazon.awssdk.services.ec2.model.ResourceType;

/**
 * The brokers' security group: Kafka open to the VPC; the controllers, the inter-broker listener (SASL_SSL) and (FSWAL)
 * NFS only within the group. Its ingress is observed rule by rule, so a rule removed outside Keel is put back.
 */
public final class SecurityGroup implements ManagedResource {

    /** The group's ingress as {@code protocol:from-to:cidr:<cidr>} and {@code protocol:from-to:group:<id>}, comma-separated. */
    private static final String INGRESS = "ingress";
    private static final String VPC_CIDR = "vpcCidr";

    /** A VPC's primary CIDR block, which AWS never changes: looked up once per VPC. */
    private final Map<String, String> vpcCidrs = new ConcurrentHashMap<>();

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        UUID instanceId = desired.instanceId();
        Ec2Client ec2 = aws.ec2();
        List<software.amazon.awssdk.services.ec2.model.SecurityGroup> groups = AwsCalls.call(
                "ec2:DescribeSecurityGroups", () -> ec2.describeSecurityGroupsPaginator(b -> b
                        .filters(Tags.byInstance(instanceId))).securityGroups().stream().toList());
        List<ObservedState.Resource> found = new ArrayList<>();
        for (var group : groups) {
            Map<String, String> attributes = new HashMap<>();
            attributes.put("vpcId", String.valueOf(group.vpcId()));
            attributes.put("groupName", group.groupName());
            attributes.put(INGRESS, String.join(",", ingress(group.ipPermissions())));
            String cidr = vpcCidrs.computeIfAbsent(group.vpcId(), vpc -> AwsCalls.call("ec2:DescribeVpcs",
                    () -> ec2.describeVpcs(b -> b.vpcIds(vpc)).vpcs()).stream().findFirst().orElseThrow().cidrBlock());
            attributes.put(VPC_CIDR, cidr);
            found.add(new ObservedState.Resource(ObservedState.SECURITY_GROUP, Tags.logicalName(Tags.ofEc2(group.tags())),
                    group.groupId(), attributes));
        }
        return found;
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        var want = desired.securityGroup();
        var seen = observed.find(ObservedState.SECURITY_GROUP, want.logicalName());
        if (seen.isEmpty()) {
            return List.of(new ResourceChange(Action.CREATE, ObservedState.SECURITY_GROUP, want.logicalName(), null,
                    "security group " + want.groupName() + " in " + want.vpcId()));
        }
        List<String> missing = missingRules(want, seen.get());
        return missing.isEmpty() ? List.of() : List.of(new ResourceChange(Action.UPDATE, ObservedState.SECURITY_GROUP,
                want.logicalName(), seen.get().id(), "restore ingress " + String.join(", ", missing)));
    }

    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        var want = ctx.desired().securityGroup();
        for (ResourceChange change : changes) {
            if (change.action() == Action.CREATE) {
                create(ctx, want);
            }
            authorize(ctx, want);
        }
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        for (ResourceChange change : deletes) {
            delete(ctx, change.id());
        }
        ctx.observedOwn(List.of());
    }

    private void create(StepContext ctx, DesiredState.SecurityGroup want) {
        try {
            ctx.aws().ec2().createSecurityGroup(b -> b.groupName(want.groupName()).description(want.description())
                    .vpcId(want.vpcId()).tagSpecifications(Tags.ec2(ResourceType.SECURITY_GROUP,
                            ctx.desired().tags(want.logicalName()))));
        } catch (SdkException e) {
            if (!AwsCalls.hasCode(e, "InvalidGroup.Duplicate")) {
                throw AwsCalls.classify("ec2:CreateSecurityGroup", e);
            }
            // Created with its tags in one call: a group of that name is ours when an earlier attempt's answer was
            // lost, and someone else's when it lacks our tags.
            boolean ours = AwsCalls.call("ec2:DescribeSecurityGroups", () -> ctx.aws().ec2().describeSecurityGroups(
                    b -> b.filters(Tags.filter("group-name", want.groupName()), Tags.filter("vpc-id", want.vpcId())))
                    .securityGroups()).stream().anyMatch(g -> ctx.desired().instanceId().toString()
                    .equals(Tags.ofEc2(g.tags()).get(DesiredState.TAG_INSTANCE)));
            if (!ours) {
                throw new ProvisioningException("SECURITY_GROUP_UNTAGGED", "A security group named "
                        + want.groupName() + " exists in " + want.vpcId()
                        + " without Keel's tags; remove it or restore its byoc:* tags.", false);
            }
        }
        ctx.await(ObservedState.SECURITY_GROUP, "security group " + want.groupName() + " to be visible", null, () -> {
            ctx.observedOwn(observe(ctx.aws(), ctx.desired()));
            return ctx.observed().find(ObservedState.SECURITY_GROUP, want.logicalName()).isPresent();
        });
    }

    private void authorize(StepContext ctx, DesiredState.SecurityGroup want) {
        ObservedState.Resource group = ctx.observed().find(ObservedState.SECURITY_GROUP, want.logicalName()).orElseThrow();
        Set<String> present = Set.of(group.attribute(INGRESS).split(","));
        String cidr = group.attribute(VPC_CIDR);
        List<IpPermission> missing = new ArrayList<>();
        for (DesiredState.IngressRule rule : want.ingress()) {
            if (present.contains(rule(rule, group.id(), cidr))) {
                continue;
            }
            IpPermission.Builder p = IpPermission.builder().ipProtocol(rule.protocol()).fromPort(rule.fromPort())
                    .toPort(rule.toPort());
            if (rule.source() == DesiredState.Source.VPC_CIDR) {
                p.ipRanges(r -> r.cidrIp(cidr).description(rule.description()));
            } else {
                p.userIdGroupPairs(g -> g.groupId(group.id()).description(rule.description()));
            }
            missing.add(p.build());
        }
        if (missing.isEmpty()) {
            return;
        }
        try {
            ctx.aws().ec2().authorizeSecurityGroupIngress(b -> b.groupId(group.id()).ipPermissions(missing));
        } catch (SdkException e) {
            if (!AwsCalls.hasCode(e, "InvalidPermission.Duplicate")) {
                throw AwsCalls.classify("ec2:AuthorizeSecurityGroupIngress", e);
            }
        }
    }

    private void delete(StepContext ctx, String groupId) {
        Ec2Client ec2 = ctx.aws().ec2();
        // Network interfaces of instances just terminated can hold the group a while longer.
        ctx.await(ObservedState.SECURITY_GROUP, "security group " + groupId + " to be deletable", null, () -> {
            try {
                ec2.deleteSecurityGroup(b -> b.groupId(groupId));
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
        ctx.await(ObservedState.SECURITY_GROUP, "security group " + groupId + " to be gone", null,
                () -> observe(ctx.aws(), ctx.desired()).stream().noneMatch(g -> g.id().equals(groupId)));
    }

    private static List<String> missingRules(DesiredState.SecurityGroup want, ObservedState.Resource seen) {
        String ingress = seen.attribute(INGRESS);
        Set<String> present = ingress == null ? Set.of() : Set.of(ingress.split(","));
        return want.ingress().stream().filter(r -> !present.contains(rule(r, seen.id(), seen.attribute(VPC_CIDR))))
                .map(r -> r.protocol() + " " + r.fromPort() + " (" + r.description() + ")").toList();
    }

    /** A desired rule in the form {@link #INGRESS} lists observed ones. */
    private static String rule(DesiredState.IngressRule rule, String groupId, String vpcCidr) {
        return rule.protocol() + ":" + rule.fromPort() + "-" + rule.toPort() + ":"
                + (rule.source() == DesiredState.Source.VPC_CIDR ? "cidr:" + vpcCidr : "group:" + groupId);
    }

    private static TreeSet<String> ingress(List<IpPermission> permissions) {
        TreeSet<String> rules = new TreeSet<>();
        for (IpPermission p : permissions) {
            String ports = p.ipProtocol() + ":" + p.fromPort() + "-" + p.toPort() + ":";
            p.ipRanges().forEach(r -> rules.add(ports + "cidr:" + r.cidrIp()));
            p.userIdGroupPairs().forEach(g -> rules.add(ports + "group:" + g.groupId()));
        }
        return rules;
    }
}

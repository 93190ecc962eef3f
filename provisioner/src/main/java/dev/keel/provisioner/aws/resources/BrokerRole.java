package dev.keel.provisioner.aws.resources;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.Json;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.EntityAlreadyExistsException;
import software.amazon.awssdk.services.iam.model.LimitExceededException;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.iam.model.Tag;

/**
 * The brokers' IAM role (trusting EC2, with one inline policy on the instance's two buckets, capped by the
 * account's broker permissions boundary) and the instance profile that carries it, found by their deterministic
 * names. A role whose boundary or policy was changed behind Keel's back is restored.
 */
public final class BrokerRole implements ManagedResource {

    private static final String ROLE = "broker-role";
    private static final String PROFILE = "broker-instance-profile";

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        UUID instanceId = desired.instanceId();
        String name = DesiredState.prefix(instanceId) + "-broker";
        IamClient iam = aws.iam();
        List<ObservedState.Resource> found = new ArrayList<>();
        var role = ifExists("iam:GetRole", () -> iam.getRole(b -> b.roleName(name)).role());
        if (role != null) {
            Map<String, String> attributes = new HashMap<>(Map.of("arn", role.arn()));
            if (role.permissionsBoundary() != null) {
                attributes.put("boundary", role.permissionsBoundary().permissionsBoundaryArn());
            }
            String policy = ifExists("iam:GetRolePolicy", () -> iam.getRolePolicy(b -> b.roleName(name)
                    .policyName(DesiredState.BROKER_POLICY_NAME)).policyDocument());
            if (policy != null) {
                // IAM answers the document URL-encoded.
                attributes.put("policy", URLDecoder.decode(policy, StandardCharsets.UTF_8));
            }
            found.add(new ObservedState.Resource(ObservedState.IAM_ROLE, ROLE, role.roleName(), attributes));
        }
        var profile = ifExists("iam:GetInstanceProfile",
                () -> iam.getInstanceProfile(b -> b.instanceProfileName(name)).instanceProfile());
        if (profile != null) {
            found.add(new ObservedState.Resource(ObservedState.IAM_INSTANCE_PROFILE, PROFILE,
                    profile.instanceProfileName(), Map.of("roles", String.join(",",
                    profile.roles().stream().map(r -> r.roleName()).toList()))));
        }
        return found;
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        DesiredState.BrokerRole role = desired.role();
        List<ResourceChange> changes = new ArrayList<>();
        var seenRole = observed.find(ObservedState.IAM_ROLE, ROLE);
        if (seenRole.isEmpty()) {
            changes.add(new ResourceChange(Action.CREATE, ObservedState.IAM_ROLE, ROLE, null, "role " + role.roleName()));
        } else {
            List<String> restore = new ArrayList<>();
            if (!role.permissionsBoundary().equals(seenRole.get().attribute("boundary"))) {
                restore.add("its permissions boundary " + role.permissionsBoundary());
            }
            if (!Json.same(seenRole.get().attribute("policy"), role.policy())) {
                restore.add("its inline policy " + role.policyName());
            }
            if (!restore.isEmpty()) {
                changes.add(new ResourceChange(Action.UPDATE, ObservedState.IAM_ROLE, ROLE, seenRole.get().id(),
                        "restore " + String.join(" and ", restore)));
            }
        }
        var seenProfile = observed.find(ObservedState.IAM_INSTANCE_PROFILE, PROFILE);
        if (seenProfile.isEmpty()) {
            changes.add(new ResourceChange(Action.CREATE, ObservedState.IAM_INSTANCE_PROFILE, PROFILE, null,
                    "instance profile " + role.profileName()));
        } else if (!List.of(seenProfile.get().attribute("roles").split(",")).contains(role.roleName())) {
            changes.add(new ResourceChange(Action.UPDATE, ObservedState.IAM_INSTANCE_PROFILE, PROFILE,
                    seenProfile.get().id(), "add role " + role.roleName()));
        }
        return changes;
    }

    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        IamClient iam = ctx.aws().iam();
        DesiredState.BrokerRole role = ctx.desired().role();
        for (ResourceChange change : changes) {
            boolean isRole = change.type().equals(ObservedState.IAM_ROLE);
            // A role this call created carries the boundary already; one found instead, or drifted, may not.
            boolean bounded = change.action() == Action.CREATE && isRole && createRole(ctx, iam, role);
            if (change.action() == Action.CREATE && !isRole) {
                createProfile(ctx, iam, role);
            }
            if (isRole) {
                // The boundary first: the control-plane role may write a policy only on a role that carries it.
                if (!bounded) {
                    putBoundary(iam, role);
                }
                putPolicy(iam, role);
            } else {
                addRole(iam, role);
            }
        }
        if (!changes.isEmpty()) {
            ctx.observedOwn(List.of(
                    new ObservedState.Resource(ObservedState.IAM_ROLE, ROLE, role.roleName(),
                            Map.of("policy", role.policy(), "boundary", role.permissionsBoundary())),
                    new ObservedState.Resource(ObservedState.IAM_INSTANCE_PROFILE, PROFILE, role.profileName(),
                            Map.of("roles", role.roleName()))));
        }
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        IamClient iam = ctx.aws().iam();
        DesiredState.BrokerRole role = ctx.desired().role();
        for (ResourceChange change : deletes) {
            if (change.type().equals(ObservedState.IAM_ROLE)) {
                deleteRole(iam, role);
            } else {
                deleteProfile(iam, role);
            }
        }
        ctx.await(ObservedState.IAM_ROLE, "broker role and instance profile to be gone", null,
                () -> observe(ctx.aws(), ctx.desired()).isEmpty());
        ctx.observedOwn(List.of());
    }

    /** Whether this call created the role (with its boundary); false when an earlier attempt had. */
    private static boolean createRole(StepContext ctx, IamClient iam, DesiredState.BrokerRole role) {
        try {
            iam.createRole(b -> b.roleName(role.roleName()).path(role.path())
                    .permissionsBoundary(role.permissionsBoundary())
                    .assumeRolePolicyDocument(role.trustPolicy())
                    .description("Keel brokers of instance " + ctx.desired().instanceId())
                    .tags(tags(ctx, ROLE)));
            return true;
        } catch (EntityAlreadyExistsException e) {
            // created by an earlier attempt whose answer was lost, or by someone else meanwhile
            return false;
        } catch (SdkException e) {
            throw AwsCalls.classify("iam:CreateRole", e);
        }
    }

    private static void putBoundary(IamClient iam, DesiredState.BrokerRole role) {
        AwsCalls.run("iam:PutRolePermissionsBoundary", () -> iam.putRolePermissionsBoundary(b -> b
                .roleName(role.roleName()).permissionsBoundary(role.permissionsBoundary())));
    }

    private static void putPolicy(IamClient iam, DesiredState.BrokerRole role) {
        AwsCalls.run("iam:PutRolePolicy", () -> iam.putRolePolicy(b -> b.roleName(role.roleName())
                .policyName(role.policyName()).policyDocument(role.policy())));
    }

    private static void createProfile(StepContext ctx, IamClient iam, DesiredState.BrokerRole role) {
        try {
            iam.createInstanceProfile(b -> b.instanceProfileName(role.profileName()).path(role.path())
                    .tags(tags(ctx, PROFILE)));
        } catch (EntityAlreadyExistsException e) {
            // created by an earlier attempt whose answer was lost
        } catch (SdkException e) {
            throw AwsCalls.classify("iam:CreateInstanceProfile", e);
        }
    }

    private static void addRole(IamClient iam, DesiredState.BrokerRole role) {
        try {
            iam.addRoleToInstanceProfile(b -> b.instanceProfileName(role.profileName()).roleName(role.roleName()));
        } catch (LimitExceededException e) {
            // it already holds its one role
        } catch (SdkException e) {
            throw AwsCalls.classify("iam:AddRoleToInstanceProfile", e);
        }
    }

    private static void deleteProfile(IamClient iam, DesiredState.BrokerRole role) {
        var profile = ifExists("iam:GetInstanceProfile",
                () -> iam.getInstanceProfile(b -> b.instanceProfileName(role.profileName())).instanceProfile());
        if (profile == null) {
            return;
        }
        for (var r : profile.roles()) {
            ignoreMissing("iam:RemoveRoleFromInstanceProfile", () -> iam.removeRoleFromInstanceProfile(b -> b
                    .instanceProfileName(role.profileName()).roleName(r.roleName())));
        }
        ignoreMissing("iam:DeleteInstanceProfile", () -> iam.deleteInstanceProfile(b -> b
                .instanceProfileName(role.profileName())));
    }

    private static void deleteRole(IamClient iam, DesiredState.BrokerRole role) {
        List<String> inline = new ArrayList<>();
        ignoreMissing("iam:ListRolePolicies", () -> inline.addAll(iam.listRolePolicies(b -> b
                .roleName(role.roleName())).policyNames()));
        inline.forEach(p -> ignoreMissing("iam:DeleteRolePolicy", () -> iam.deleteRolePolicy(b -> b
                .roleName(role.roleName()).policyName(p))));
        List<String> attached = new ArrayList<>();
        ignoreMissing("iam:ListAttachedRolePolicies", () -> iam.listAttachedRolePolicies(b -> b
                .roleName(role.roleName())).attachedPolicies().forEach(p -> attached.add(p.policyArn())));
        attached.forEach(arn -> ignoreMissing("iam:DetachRolePolicy", () -> iam.detachRolePolicy(b -> b
                .roleName(role.roleName()).policyArn(arn))));
        ignoreMissing("iam:DeleteRole", () -> iam.deleteRole(b -> b.roleName(role.roleName())));
    }

    private static List<Tag> tags(StepContext ctx, String logicalName) {
        List<Tag> tags = new ArrayList<>();
        ctx.desired().tags(logicalName).forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
        return tags;
    }

    private static <T> T ifExists(String action, Supplier<T> call) {
        try {
            return call.get();
        } catch (NoSuchEntityException e) {
            return null;
        } catch (SdkException e) {
            throw AwsCalls.classify(action, e);
        }
    }

    private static void ignoreMissing(String action, Runnable call) {
        ifExists(action, () -> {
            call.run();
            return null;
        });
    }
}

package dev.keel.provisioner.aws;

import java.util.ArrayList;
import java.util.List;

import software.amazon.awssdk.services.iam.model.EntityAlreadyExistsException;
import software.amazon.awssdk.services.iam.model.InstanceProfile;
import software.amazon.awssdk.services.iam.model.LimitExceededException;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.iam.model.Tag;

/** The broker role (trusting EC2, inline policy on the two buckets only) and its instance profile. */
final class IamOps {

    private IamOps() {
    }

    static void ensureRole(StepContext ctx) {
        var iam = ctx.aws().iam();
        DesiredState.BrokerRole role = ctx.desired().role();
        if (!roleExists(ctx)) {
            try {
                iam.createRole(b -> b.roleName(role.roleName()).path(role.path())
                        .assumeRolePolicyDocument(role.trustPolicy())
                        .description("Keel brokers of instance " + ctx.instanceId())
                        .tags(iamTags(ctx, "broker-role")));
            } catch (EntityAlreadyExistsException e) {
                // created by an earlier attempt we did not see finish
            } catch (software.amazon.awssdk.core.exception.SdkException e) {
                throw AwsCalls.classify("iam:CreateRole", e);
            }
        }
        AwsCalls.run("iam:PutRolePolicy", () -> iam.putRolePolicy(b -> b.roleName(role.roleName())
                .policyName(role.policyName()).policyDocument(role.policy())));
        InstanceProfile profile = profile(ctx);
        if (profile == null) {
            try {
                profile = iam.createInstanceProfile(b -> b.instanceProfileName(role.profileName()).path(role.path())
                        .tags(iamTags(ctx, "broker-instance-profile"))).instanceProfile();
            } catch (EntityAlreadyExistsException e) {
                profile = profile(ctx);
            } catch (software.amazon.awssdk.core.exception.SdkException e) {
                throw AwsCalls.classify("iam:CreateInstanceProfile", e);
            }
        }
        boolean hasRole = profile != null && profile.roles().stream()
                .anyMatch(r -> r.roleName().equals(role.roleName()));
        if (!hasRole) {
            try {
                iam.addRoleToInstanceProfile(b -> b.instanceProfileName(role.profileName())
                        .roleName(role.roleName()));
            } catch (LimitExceededException e) {
                // already holds its one role
            } catch (software.amazon.awssdk.core.exception.SdkException e) {
                throw AwsCalls.classify("iam:AddRoleToInstanceProfile", e);
            }
        }
    }

    static void deleteRole(StepContext ctx) {
        var iam = ctx.aws().iam();
        DesiredState.BrokerRole role = ctx.desired().role();
        InstanceProfile profile = profile(ctx);
        if (profile != null) {
            for (var r : profile.roles()) {
                ignoreMissing("iam:RemoveRoleFromInstanceProfile", () -> iam.removeRoleFromInstanceProfile(b -> b
                        .instanceProfileName(role.profileName()).roleName(r.roleName())));
            }
            ignoreMissing("iam:DeleteInstanceProfile", () -> iam.deleteInstanceProfile(b -> b
                    .instanceProfileName(role.profileName())));
        }
        if (roleExists(ctx)) {
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
        ctx.await("broker role and instance profile to be gone", () -> !roleExists(ctx) && profile(ctx) == null);
    }

    static boolean roleExists(StepContext ctx) {
        try {
            ctx.aws().iam().getRole(b -> b.roleName(ctx.desired().role().roleName()));
            return true;
        } catch (NoSuchEntityException e) {
            return false;
        } catch (software.amazon.awssdk.core.exception.SdkException e) {
            throw AwsCalls.classify("iam:GetRole", e);
        }
    }

    static InstanceProfile profile(StepContext ctx) {
        try {
            return ctx.aws().iam().getInstanceProfile(b -> b.instanceProfileName(ctx.desired().role().profileName()))
                    .instanceProfile();
        } catch (NoSuchEntityException e) {
            return null;
        } catch (software.amazon.awssdk.core.exception.SdkException e) {
            throw AwsCalls.classify("iam:GetInstanceProfile", e);
        }
    }

    private static List<Tag> iamTags(StepContext ctx, String logical) {
        List<Tag> tags = new ArrayList<>();
        ctx.desired().tags(logical).forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
        return tags;
    }

    private static void ignoreMissing(String action, Runnable call) {
        try {
            call.run();
        } catch (NoSuchEntityException e) {
            // already gone
        } catch (software.amazon.awssdk.core.exception.SdkException e) {
            throw AwsCalls.classify(action, e);
        }
    }
}

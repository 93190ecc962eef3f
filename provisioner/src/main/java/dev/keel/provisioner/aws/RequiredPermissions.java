package dev.keel.provisioner.aws;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every IAM action the provisioner calls in a customer account, with the resources it calls it on
 * (as ARN patterns in the onboarding template's own form) and the request context its calls carry:
 * what verifying a cloud account asks IAM's policy simulator. {@code sts:AssumeRole} is not here:
 * the trust policy grants it, and verification proves it by assuming the role.
 */
final class RequiredPermissions {

    /**
     * Condition keys as the provisioner's calls present them in the account of {@code roleArn}: tags at creation,
     * managed resources, roles passed to EC2, broker roles created and written with the account's boundary.
     */
    static Map<String, String> context(String roleArn) {
        return Map.of(
                "aws:RequestTag/" + DesiredState.TAG_MANAGED_BY, DesiredState.MANAGED_BY,
                "aws:ResourceTag/" + DesiredState.TAG_MANAGED_BY, DesiredState.MANAGED_BY,
                "ec2:ResourceTag/" + DesiredState.TAG_MANAGED_BY, DesiredState.MANAGED_BY,
                "ec2:CreateAction", "RunInstances",
                "iam:PassedToService", "ec2.amazonaws.com",
                "iam:PermissionsBoundary", BrokerBoundary.arn(roleArn));
    }

    private static final List<String> EC2 = List.of(
            "ec2:DescribeInstances", "ec2:DescribeInstanceStatus", "ec2:DescribeVolumes", "ec2:DescribeSecurityGroups", "ec2:DescribeLaunchTemplates",
            "ec2:DescribeLaunchTemplateVersions", "ec2:DescribeVpcs", "ec2:DescribeSubnets", "ec2:RunInstances", "ec2:StartInstances", "ec2:TerminateInstances", "ec2:CreateTags",
            "ec2:ModifyInstanceAttribute",
            "ec2:CreateVolume", "ec2:AttachVolume", "ec2:DetachVolume", "ec2:DeleteVolume",
            "ec2:CreateSecurityGroup", "ec2:AuthorizeSecurityGroupIngress", "ec2:DeleteSecurityGroup",
            "ec2:CreateLaunchTemplate", "ec2:CreateLaunchTemplateVersion", "ec2:ModifyLaunchTemplate",
            "ec2:DeleteLaunchTemplate", "ec2:DescribeRouteTables", "ec2:DescribeVpcEndpoints");
    /** Of the S3 gateway endpoint: created tagged, changed and deleted only while tagged. */
    private static final List<String> ENDPOINTS = List.of(
            "ec2:CreateVpcEndpoint", "ec2:ModifyVpcEndpoint", "ec2:DeleteVpcEndpoints");
    /** The existing network an S3 gateway endpoint is created in and given route tables of. */
    private static final List<String> ENDPOINT_NETWORK = List.of("ec2:CreateVpcEndpoint", "ec2:ModifyVpcEndpoint");
    private static final List<String> FSX = List.of(
            "fsx:DescribeFileSystems", "fsx:DescribeStorageVirtualMachines", "fsx:DescribeVolumes",
            "fsx:CreateFileSystem", "fsx:CreateStorageVirtualMachine", "fsx:CreateVolume", "fsx:TagResource",
            "fsx:UpdateFileSystem", "fsx:DeleteFileSystem", "fsx:DeleteStorageVirtualMachine", "fsx:DeleteVolume");
    private static final List<String> BUCKETS = List.of(
            "s3:GetBucketTagging", "s3:GetBucketPolicy", "s3:CreateBucket", "s3:PutBucketTagging",
            "s3:PutBucketPolicy", "s3:PutBucketPublicAccessBlock",
            "s3:PutEncryptionConfiguration", "s3:PutLifecycleConfiguration", "s3:ListBucketMultipartUploads",
            "s3:ListBucketVersions", "s3:DeleteBucket");
    private static final List<String> OBJECTS = List.of("s3:AbortMultipartUpload", "s3:DeleteObjectVersion");
    private static final List<String> ROLES = List.of(
            "iam:GetRole", "iam:CreateRole", "iam:TagRole", "iam:GetRolePolicy", "iam:PutRolePolicy",
            "iam:PutRolePermissionsBoundary", "iam:ListRolePolicies",
            "iam:DeleteRolePolicy", "iam:ListAttachedRolePolicies", "iam:DetachRolePolicy", "iam:DeleteRole",
            "iam:PassRole");
    private static final List<String> PROFILES = List.of(
            "iam:GetInstanceProfile", "iam:CreateInstanceProfile", "iam:TagInstanceProfile",
            "iam:AddRoleToInstanceProfile", "iam:RemoveRoleFromInstanceProfile", "iam:DeleteInstanceProfile");

    private RequiredPermissions() {
    }

    /** Resource ARN pattern → the actions called on it, for the account of {@code roleArn}. */
    static Map<String, List<String>> byResource(String roleArn) {
        String[] arn = roleArn.split(":");
        String partition = arn[1];
        String account = arn[4];
        String ec2 = "arn:" + partition + ":ec2:*:" + account + ":";
        String iam = "arn:" + partition + ":iam::" + account + ":";
        String path = DesiredState.IAM_PATH;
        Map<String, List<String>> probes = new LinkedHashMap<>();
        probes.put("*", concat(EC2, FSX));
        // RunInstances is also authorised against the existing network and the image it launches from.
        for (String existing : List.of("arn:" + partition + ":ec2:*::image/*", ec2 + "subnet/*",
                ec2 + "network-interface/*", ec2 + "security-group/*", ec2 + "launch-template/*")) {
            probes.put(existing, List.of("ec2:RunInstances"));
        }
        probes.put(ec2 + "vpc-endpoint/*", ENDPOINTS);
        probes.put(ec2 + "vpc/*", ENDPOINT_NETWORK);
        probes.put(ec2 + "route-table/*", ENDPOINT_NETWORK);
        probes.put("arn:" + partition + ":s3:::" + DesiredState.NAME_PREFIX + "*", BUCKETS);
        probes.put("arn:" + partition + ":s3:::" + DesiredState.NAME_PREFIX + "*/*", OBJECTS);
        probes.put(iam + "role" + path + "*", ROLES);
        probes.put(iam + "instance-profile" + path + "*", PROFILES);
        // AWS's public parameters have no account in their ARN.
        probes.put("arn:" + partition + ":ssm:*::parameter" + MachineImages.PARAMETER, List.of("ssm:GetParameter"));
        return probes;
    }

    /** Every action, once. */
    static List<String> actions() {
        return byResource("arn:aws:iam::000000000000:role/any").values().stream().flatMap(List::stream)
                .distinct().sorted().toList();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }
}

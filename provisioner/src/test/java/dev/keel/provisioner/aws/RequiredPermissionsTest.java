package dev.keel.provisioner.aws;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequiredPermissionsTest {

    private static final Pattern ACTION = Pattern.compile("\"((?:ec2|s3|iam|fsx):[A-Z][A-Za-z]+)\"");

    /** A call the provisioner names but verification does not check would fail only in a customer's account. */
    @Test
    void everyActionTheProvisionerCallsIsVerified() throws IOException {
        Set<String> called = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source : sources.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !p.endsWith("RequiredPermissions.java")).toList()) {
                Matcher m = ACTION.matcher(Files.readString(source));
                while (m.find()) {
                    called.add(m.group(1));
                }
            }
        }
        called.remove("iam:SimulatePrincipalPolicy");

        assertThat(called).hasSizeGreaterThan(40);
        assertThat(RequiredPermissions.actions()).containsAll(called);
    }

    @Test
    void resourcesAreTheRolesAccountInTheTemplatesOwnPatterns() {
        var probes = RequiredPermissions.byResource("arn:aws-cn:iam::123456789012:role/KeelControlPlane");

        assertThat(probes).containsKeys("*", "arn:aws-cn:s3:::keel-*", "arn:aws-cn:s3:::keel-*/*",
                "arn:aws-cn:iam::123456789012:role/keel/*", "arn:aws-cn:iam::123456789012:instance-profile/keel/*",
                "arn:aws-cn:ec2:*:123456789012:subnet/*");
        assertThat(probes.get("arn:aws-cn:iam::123456789012:role/keel/*")).contains("iam:PassRole", "iam:CreateRole");
        assertThat(probes.get("arn:aws-cn:s3:::keel-*/*")).containsExactlyInAnyOrder("s3:DeleteObjectVersion",
                "s3:AbortMultipartUpload");
    }

    /** Broker roles are created and written only with the boundary the template made beside the role, named after it. */
    @Test
    void roleWritesAreSimulatedWithTheBoundaryOfTheRolesAccount() {
        assertThat(RequiredPermissions.context("arn:aws-cn:iam::123456789012:role/ops/KeelControlPlane"))
                .containsEntry("iam:PermissionsBoundary",
                        "arn:aws-cn:iam::123456789012:policy/keel/KeelControlPlane-broker-boundary")
                .containsEntry("iam:PassedToService", "ec2.amazonaws.com");
        assertThat(RequiredPermissions.byResource("arn:aws:iam::123456789012:role/KeelControlPlane")
                .get("arn:aws:iam::123456789012:role/keel/*")).contains("iam:PutRolePermissionsBoundary");
    }
}

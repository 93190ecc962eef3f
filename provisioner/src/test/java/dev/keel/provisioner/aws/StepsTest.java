package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.WalType;

class StepsTest {

    final AwsProvisioningDriver driver = new AwsProvisioningDriver(AwsProvisionerSettings.defaults()
            .withBaseCredentials(software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider.create()));

    @Test
    void createStepsFollowDependencies() {
        var t = Targets.target(DesiredStateTest.ID, WalType.EBS, 3, Targets.zones(1), Targets.ACCOUNT, "vpc");
        assertThat(driver.steps(ChangeKind.CREATE, t)).containsExactly("create-buckets", "create-broker-role",
                "create-security-group", "create-launch-template", "create-wal-volumes", "launch-brokers",
                "publish-endpoint");
        var f = Targets.target(DesiredStateTest.ID, WalType.FSWAL, 3, Targets.zones(3), Targets.ACCOUNT, "vpc");
        assertThat(driver.steps(ChangeKind.UPDATE, f)).containsExactly("create-buckets", "create-broker-role",
                "create-security-group", "resize-wal-file-systems", "create-launch-template", "launch-brokers",
                "retire-surplus-brokers", "remove-surplus-wal-file-systems", "publish-endpoint");
    }

    @Test
    void deleteStepsGoInReverseAndVerify() {
        var t = Targets.target(DesiredStateTest.ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc");
        assertThat(driver.steps(ChangeKind.DELETE, t)).containsExactly("terminate-brokers", "delete-wal-volumes",
                "delete-launch-template", "delete-wal-file-systems", "delete-security-group", "delete-broker-role",
                "delete-buckets", "delete-s3-gateway-endpoint", "verify-nothing-left");
    }

    @Test
    void networkPathsComeFirstUnlessTheSpecLeavesRoutingAloneAndTheSharedEndpointGoesLastWhatever() {
        var t = Targets.target(DesiredStateTest.ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc")
                .withS3GatewayEndpoint(S3GatewayEndpointMode.CREATE);
        assertThat(driver.steps(ChangeKind.CREATE, t)).startsWith("prepare-network-paths", "create-buckets");
        assertThat(driver.steps(ChangeKind.DELETE, t)).endsWith("delete-buckets", "delete-s3-gateway-endpoint",
                "verify-nothing-left");
        var existing = t.withS3GatewayEndpoint(S3GatewayEndpointMode.REQUIRE_EXISTING);
        assertThat(driver.steps(ChangeKind.REPAIR, existing)).startsWith("prepare-network-paths");
        var none = t.withS3GatewayEndpoint(S3GatewayEndpointMode.NONE);
        assertThat(driver.steps(ChangeKind.CREATE, none)).first().isEqualTo("create-buckets");
        assertThat(driver.steps(ChangeKind.UPDATE, none)).doesNotContain("prepare-network-paths");
        assertThat(driver.steps(ChangeKind.DELETE, none)).endsWith("delete-buckets", "delete-s3-gateway-endpoint",
                "verify-nothing-left");
    }
}

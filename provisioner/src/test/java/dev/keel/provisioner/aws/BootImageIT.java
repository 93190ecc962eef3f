package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.WalType;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * What brokers boot, against a real LocalStack ({@code KEEL_AWS_ENDPOINT}), which serves AWS's public Amazon Linux
 * parameters per region as AWS does: resolved through the customer's role, refused where the region has none, made
 * into the launch template as a create recorded them, and kept there once made.
 */
class BootImageIT {

    private static final LocalStackAccount aws = new LocalStackAccount();
    private final AwsProvisioningDriver driver = new AwsProvisioningDriver(aws.settings());

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void theRegionsAmazonLinuxImageAndTheVersionsBrokerImageAreResolvedThroughTheRole() {
        String published;
        try (SsmClient ssm = SsmClient.builder().endpointOverride(aws.endpoint).region(Region.of("eu-west-1"))
                .credentialsProvider(LocalStackAccount.ROOT).build()) {
            published = ssm.getParameter(b -> b.name(MachineImages.PARAMETER)).parameter().value();
        }
        BootImage boot = driver.bootImage(aws.account, "eu-west-1", "4.1.0");
        assertThat(boot.machineImage()).startsWith("ami-").isEqualTo(published);
        assertThat(boot.brokerImage()).isEqualTo(Targets.BROKER_IMAGE);
    }

    @Test
    void aRegionWithoutTheImageIsRefusedNamingTheParameter() {
        assertThatThrownBy(() -> driver.bootImage(aws.account, "ap-southeast-7", "4.1.0"))
                .isInstanceOfSatisfying(ProvisioningException.class, e -> {
                    assertThat(e.code()).isEqualTo("NO_MACHINE_IMAGE");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("ap-southeast-7", MachineImages.PARAMETER);
                });
    }

    @Test
    void aVersionWithoutABrokerImageIsRefused() {
        assertThatThrownBy(() -> driver.bootImage(aws.account, "us-east-1", "1.0.0"))
                .isInstanceOfSatisfying(ProvisioningException.class, e -> {
                    assertThat(e.code()).isEqualTo("NO_BROKER_IMAGE");
                    assertThat(e.getMessage()).contains("1.0.0");
                });
    }

    @Test
    void theLaunchTemplateBootsTheImageTheCreateRecordedNotTheOneTheParameterNamesNow() {
        // Recorded by the create before its 202; the parameter has moved since. The broker image is in the account's
        // ECR, which the broker role must be allowed to pull from.
        BootImage recorded = new BootImage("ami-0f1e2d3c4b5a69788", aws.account.awsAccountId()
                + ".dkr.ecr.us-east-1.amazonaws.com/keel/keel-broker@sha256:" + "cd".repeat(32));
        ProvisioningTarget accepted = new ProvisioningTarget(UUID.randomUUID(), "it-recorded", LocalStackAccount.REGION,
                aws.account, aws.vpcId, aws.zones, WalType.S3, 3, null, null, "t3.micro", 3, "4.1.0",
                Inventory.booting(recorded), new ProvisioningTarget.Agent(null, null, "token"));
        assertThat(driver.bootImage(aws.account, LocalStackAccount.REGION, "4.1.0").machineImage())
                .isNotEqualTo(recorded.machineImage());
        // Each step hands the inventory on, as the backend stores it between steps and a resumed worker reads it.
        ProvisioningTarget created = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE, accepted);
        try {
            assertThat(created.observed().boot()).isEqualTo(recorded);
            assertThat(driver.observe(created).find(ObservedState.LAUNCH_TEMPLATE, DesiredState.LAUNCH_TEMPLATE_NAME)
                    .orElseThrow().attributes()).containsEntry("imageId", recorded.machineImage())
                    .containsEntry("brokerImage", recorded.brokerImage());
            DesiredState.BrokerRole role = driver.desired(created).role();
            assertThat(aws.iam.getRolePolicy(r -> r.roleName(role.roleName()).policyName(role.policyName()))
                    .policyDocument()).as("made before the template, from the same record").contains("BatchGetImage");
            assertThat(driver.plan(ChangeKind.REPAIR, created, true)).as("no drift").isEmpty();
        } finally {
            AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, created);
        }
    }

    @Test
    void theLaunchTemplateKeepsTheImageItWasMadeWithWhenTheParameterMoves() {
        // Made with an image the parameter does not name now: as if AWS had published a newer AMI since.
        BootImage made = new BootImage("ami-0a1b2c3d4e5f60718", Targets.BROKER_IMAGE);
        ProvisioningTarget planned = new ProvisioningTarget(UUID.randomUUID(), "it-boot", LocalStackAccount.REGION,
                aws.account, aws.vpcId, aws.zones, WalType.S3, 3, null, null, "t3.micro", 3, "4.1.0", Inventory.EMPTY,
                new ProvisioningTarget.Agent(made, null, "token"));
        assertThat(driver.plan(ChangeKind.CREATE, planned, false))
                .filteredOn(c -> c.type().equals(ObservedState.LAUNCH_TEMPLATE)).singleElement()
                .satisfies(c -> assertThat(c.reason()).contains("image ami-0a1b2c3d4e5f60718",
                        "broker image " + Targets.BROKER_IMAGE));
        ProvisioningTarget created = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE, planned);
        try {
            // Later operations do not say what the brokers boot: the launch template does.
            ProvisioningTarget later = new ProvisioningTarget(created.instanceId(), created.instanceName(),
                    created.region(), created.account(), created.vpcId(), created.zones(), created.walType(),
                    created.aku(), null, null, created.instanceType(), created.brokerCount(), created.brokerVersion(),
                    created.observed(), new ProvisioningTarget.Agent(null, null, "token"));
            assertThat(driver.plan(ChangeKind.REPAIR, later, true)).as("no drift").isEmpty();
            Map<String, String> template = driver.observe(later).find(ObservedState.LAUNCH_TEMPLATE,
                    DesiredState.LAUNCH_TEMPLATE_NAME).orElseThrow().attributes();
            assertThat(template).containsEntry("imageId", "ami-0a1b2c3d4e5f60718")
                    .containsEntry("brokerImage", Targets.BROKER_IMAGE);
            assertThat(driver.plan(ChangeKind.UPDATE, later.resized(6, 6, null, null), true))
                    .filteredOn(c -> c.action() == ResourceChange.Action.CREATE).isNotEmpty()
                    .noneMatch(c -> c.reason() != null && c.reason().contains("image"));
        } finally {
            AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, created);
        }
    }
}

package dev.keel.provisioner.aws;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.keel.provisioner.ProvisioningTarget;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A customer account in a real LocalStack (endpoint from {@code KEEL_AWS_ENDPOINT}): a cross-account
 * role Keel assumes (trust policy with an ExternalId condition) with its broker permissions boundary,
 * and a VPC with three subnets in three zones.
 */
final class LocalStackAccount {

    static final String REGION = "us-east-1";
    static final double WAIT_SCALE = 0.02;
    static final StaticCredentialsProvider ROOT =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

    final URI endpoint;
    final ProvisioningTarget.Account account;
    final String vpcId;
    final List<ProvisioningTarget.Zone> zones;
    final Ec2Client ec2;
    final S3Client s3;
    final IamClient iam;

    static URI endpoint() {
        return required("KEEL_AWS_ENDPOINT", "These integration tests need a real LocalStack: run `scripts/stack "
                + "start --env test` and `source .local/test/env`, or start LocalStack 4.13.1 yourself (see "
                + "shared/notes/emulators.md) and export KEEL_AWS_ENDPOINT=http://localhost:<port>.");
    }

    /** The project's FSx emulator ({@code KEEL_FSX_ENDPOINT}): LocalStack has no FSx. */
    static URI fsxEndpoint() {
        return required("KEEL_FSX_ENDPOINT", "FSWAL tests need the project's FSx emulator: run `scripts/stack start "
                + "--env test` and `source .local/test/env`, or start `java -jar aws-emulator/target/"
                + "keel-aws-emulator.jar --port <port>` and export KEEL_FSX_ENDPOINT=http://localhost:<port>.");
    }

    private static URI required(String variable, String why) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(variable + " is not set. " + why);
        }
        return URI.create(value);
    }

    LocalStackAccount() {
        endpoint = endpoint();
        ec2 = Ec2Client.builder().endpointOverride(endpoint).region(Region.of(REGION)).credentialsProvider(ROOT).build();
        s3 = S3Client.builder().endpointOverride(endpoint).region(Region.of(REGION)).credentialsProvider(ROOT)
                .forcePathStyle(true).build();
        iam = IamClient.builder().endpointOverride(endpoint).region(Region.AWS_GLOBAL).credentialsProvider(ROOT)
                .build();
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String externalId = "ext-" + suffix;
        String accountId = "000000000000";
        String trust = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":"
                + "\"arn:aws:iam::" + accountId + ":root\"},\"Action\":\"sts:AssumeRole\",\"Condition\":"
                + "{\"StringEquals\":{\"sts:ExternalId\":\"" + externalId + "\"}}}]}";
        String roleArn = iam.createRole(b -> b.roleName("keel-it-access-" + suffix).assumeRolePolicyDocument(trust))
                .role().arn();
        iam.putRolePolicy(b -> b.roleName("keel-it-access-" + suffix).policyName("keel")
                .policyDocument("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":"
                        + "[\"ec2:*\",\"s3:*\",\"iam:*\",\"fsx:*\",\"ssm:GetParameter\"],\"Resource\":\"*\"}]}"));
        // What the onboarding template creates beside the role: the boundary every broker role must carry.
        iam.createPolicy(b -> b.policyName("keel-it-access-" + suffix + BrokerBoundary.SUFFIX)
                .path(DesiredState.IAM_PATH).policyDocument("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":"
                        + "\"Allow\",\"Action\":[\"s3:*\",\"ec2:DescribeInstances\"],\"Resource\":\"*\"}]}"));
        account = new ProvisioningTarget.Account(accountId, roleArn, externalId);
        vpcId = ec2.createVpc(b -> b.cidrBlock("10.42.0.0/16")).vpc().vpcId();
        String[] azs = {"us-east-1a", "us-east-1b", "us-east-1c"};
        zones = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String az = azs[i];
            String cidr = "10.42." + i + ".0/24";
            String subnet = ec2.createSubnet(b -> b.vpcId(vpcId).cidrBlock(cidr).availabilityZone(az)).subnet()
                    .subnetId();
            zones.add(new ProvisioningTarget.Zone(az, subnet));
        }
    }

    /** A driver for this account with FSx at the project's emulator. */
    AwsProvisioningDriver driverWithFsx() {
        return new AwsProvisioningDriver(settings().withEndpoints(AwsEndpoints.all(endpoint).withFsx(fsxEndpoint())));
    }

    AwsProvisionerSettings settings() {
        return AwsProvisionerSettings.defaults()
                .withEndpoints(AwsEndpoints.all(endpoint))
                .withBaseCredentials(ROOT)
                .withRetries(8, Duration.ofMillis(20), Duration.ofMillis(400))
                // The emulators' lifecycles last seconds where AWS's last minutes: wait on the same scale.
                .withWaits(Waits.aws().scaled(WAIT_SCALE))
                .withDefaults(Map.of("4.1.0", Targets.BROKER_IMAGE, "1.7.3", Targets.BROKER_IMAGE),
                        "http://localhost:8080/ingest")
                // LocalStack has no FSx; FSWAL runs against the project's own emulator.
                .withSweepFsxForEveryWal(false);
    }
}

package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.ListenerSecurity;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.WalType;

class DesiredStateTest {

    static final UUID ID = UUID.fromString("3f2a9c1e-0000-4000-8000-000000000001");
    static final DesiredState.Defaults DEFAULTS = new DesiredState.Defaults("https://default", 10, 1024);

    static DesiredState of(WalType wal, int brokers, int zones) {
        return of(Targets.target(ID, wal, brokers, Targets.zones(zones), Targets.ACCOUNT, "vpc-1"));
    }

    static DesiredState of(ProvisioningTarget target) {
        return DesiredState.of(target, DEFAULTS, target.boot());
    }

    @Test
    void namesAreDeterministicFromTheInstanceId() {
        DesiredState d = of(WalType.S3, 3, 3);
        assertThat(d.dataBucket().name()).isEqualTo("keel-3f2a9c1e-0000-4000-8000-000000000001-data");
        assertThat(d.opsBucket().name()).isEqualTo("keel-3f2a9c1e-0000-4000-8000-000000000001-ops");
        assertThat(d.dataBucket().name().length()).isLessThanOrEqualTo(63);
        assertThat(d.role().roleName()).isEqualTo("keel-3f2a9c1e-0000-4000-8000-000000000001-broker")
                .hasSizeLessThanOrEqualTo(64);
        assertThat(d.role().path()).isEqualTo("/keel/");
        assertThat(of(WalType.S3, 3, 3)).isEqualTo(d);
    }

    @Test
    void opsBucketHasALifecycleRuleAndDataBucketKeepsItsObjects() {
        DesiredState d = of(WalType.S3, 3, 3);
        assertThat(d.opsBucket().expireAfterDays()).isEqualTo(30);
        assertThat(d.dataBucket().expireAfterDays()).isNull();
    }

    @Test
    void brokerPolicyGrantsOnlyTheTwoBucketsAndFindingPeers() {
        DesiredState d = of(WalType.S3, 3, 3);
        assertThat(d.role().policy())
                .contains("arn:aws:s3:::" + d.dataBucket().name() + "\"", "arn:aws:s3:::" + d.dataBucket().name()
                        + "/*", "arn:aws:s3:::" + d.opsBucket().name() + "/*")
                .doesNotContain("s3:*", "arn:aws:s3:::*");
        // Only the agent's peer lookup, which has no resource-level permissions, is granted on every resource.
        assertThat(d.role().permissions().statements()).filteredOn(s -> s.resources().contains("*"))
                .singleElement().satisfies(s -> assertThat(s.actions()).containsExactly("ec2:DescribeInstances"));
        assertThat(d.role().trustPolicy()).contains("ec2.amazonaws.com");
        assertThat(d.role().permissionsBoundary())
                .isEqualTo("arn:aws:iam::111122223333:policy/keel/keel-broker-boundary");
    }

    @Test
    void brokersMayPullTheBrokerImageFromItsPrivateEcrRepositoryOnly() {
        assertThat(ecrStatements("444455556666.dkr.ecr.eu-west-1.amazonaws.com/keel/keel-broker")).containsExactly(
                IamPolicy.Statement.allow("EcrLogin", List.of("ecr:GetAuthorizationToken"), List.of("*")),
                IamPolicy.Statement.allow("EcrPull", List.of("ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"),
                        List.of("arn:aws:ecr:eu-west-1:444455556666:repository/keel/keel-broker")));
    }

    @Test
    void aPullThroughCacheInTheInstancesAccountMayImportAndCreateItsOneRepository() {
        assertThat(ecrStatements("111122223333.dkr.ecr.us-east-1.amazonaws.com/ecr-public/keel/keel-broker"))
                .contains(IamPolicy.Statement.allow("EcrPull", List.of("ecr:BatchGetImage",
                        "ecr:GetDownloadUrlForLayer", "ecr:BatchImportUpstreamImage", "ecr:CreateRepository"),
                        List.of("arn:aws:ecr:us-east-1:111122223333:repository/ecr-public/keel/keel-broker")));
        assertThat(ecrStatements("111122223333.dkr.ecr.cn-north-1.amazonaws.com.cn/keel-broker"))
                .extracting(IamPolicy.Statement::resources)
                .contains(List.of("arn:aws-cn:ecr:cn-north-1:111122223333:repository/keel-broker"));
    }

    private static List<IamPolicy.Statement> ecrStatements(String repository) {
        DesiredState d = DesiredState.of(Targets.target(ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1"),
                DEFAULTS, new BootImage("ami-1", repository + "@sha256:" + "ab".repeat(32)));
        return d.role().permissions().statements().stream().filter(s -> s.actions().get(0).startsWith("ecr:"))
                .toList();
    }

    @Test
    void brokersGetNoEcrAccessForAnImageElsewhere() {
        for (String image : List.of(Targets.BROKER_IMAGE,
                "public.ecr.aws/keel/keel-broker@sha256:" + "ab".repeat(32))) {
            DesiredState d = DesiredState.of(Targets.target(ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT,
                    "vpc-1"), DEFAULTS, new BootImage("ami-1", image));
            assertThat(d.role().policy()).doesNotContain("ecr:");
        }
    }

    @Test
    void securityGroupOpensKafkaToTheVpcAndTheControllerOnlyToItself() {
        var rules = of(WalType.EBS, 3, 1).securityGroup().ingress();
        assertThat(rules).containsExactly(
                new DesiredState.IngressRule("tcp", 9092, 9092, DesiredState.Source.VPC_CIDR, "Kafka clients in the VPC"),
                new DesiredState.IngressRule("tcp", 9093, 9093, DesiredState.Source.SELF, "KRaft controllers"));
        assertThat(of(WalType.FSWAL, 3, 3).securityGroup().ingress()).extracting(DesiredState.IngressRule::fromPort)
                .contains(2049).allSatisfy(p -> assertThat(p).isNotEqualTo(22));
    }

    @Test
    void aSecureInstanceOpensTheInterBrokerListenerOnlyWithinTheGroupAndTellsItsAgents() {
        ProvisioningTarget plain = Targets.target(ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1");
        DesiredState secure = of(plain.withListenerSecurity(ListenerSecurity.SASL_SSL));
        assertThat(secure.securityGroup().ingress()).contains(
                new DesiredState.IngressRule("tcp", 9094, 9094, DesiredState.Source.SELF, "Kafka inter-broker (mutual TLS)"))
                .filteredOn(r -> r.source() == DesiredState.Source.VPC_CIDR).extracting(DesiredState.IngressRule::fromPort)
                .containsExactly(9092);
        assertThat(secure.launchTemplate().nodeSpec()).containsEntry("listenerSecurity", "SASL_SSL")
                .containsEntry("internalPort", 9094).containsEntry("listenerPort", 9092);
        assertThat(secure.launchTemplate().specVersion()).isNotEqualTo(of(plain).launchTemplate().specVersion());
    }

    @Test
    void aPlaintextInstanceKeepsTheNodeSpecAndRulesItHadBeforeSecureListeners() {
        DesiredState plain = of(WalType.S3, 3, 3);
        assertThat(plain.launchTemplate().nodeSpec()).doesNotContainKeys("listenerSecurity", "internalPort");
        assertThat(plain.securityGroup().ingress()).extracting(DesiredState.IngressRule::fromPort).doesNotContain(9094);
        assertThat(of(Targets.target(ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1")
                .withListenerSecurity(ListenerSecurity.PLAINTEXT_UNAUTHENTICATED))).isEqualTo(plain);
    }

    @Test
    void brokersAreSpreadRoundRobinAcrossTheZones() {
        DesiredState d = of(WalType.S3, 6, 3);
        assertThat(d.brokers()).extracting(DesiredState.Broker::availabilityZone)
                .containsExactly("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1a", "us-east-1b", "us-east-1c");
        assertThat(d.brokers()).extracting(DesiredState.Broker::logicalName)
                .containsExactly("broker-0", "broker-1", "broker-2", "broker-3", "broker-4", "broker-5");
        assertThat(d.brokers()).extracting(DesiredState.Broker::subnetId).startsWith("subnet-a", "subnet-b");
        assertThat(d.brokers()).allSatisfy(b -> assertThat(b.clientToken()).hasSizeLessThanOrEqualTo(64));
        assertThat(d.brokers()).extracting(DesiredState.Broker::clientToken).doesNotHaveDuplicates();
        assertThat(d.walVolumes()).isEmpty();
        assertThat(d.fileSystems()).isEmpty();
    }

    @Test
    void ebsWalHasOneGp3VolumePerBrokerInTheBrokersZone() {
        DesiredState d = of(WalType.EBS, 4, 3);
        assertThat(d.walVolumes()).hasSize(4);
        for (int i = 0; i < 4; i++) {
            var v = d.walVolumes().get(i);
            assertThat(v.nodeId()).isEqualTo(i);
            assertThat(v.availabilityZone()).isEqualTo(d.brokers().get(i).availabilityZone());
            assertThat(v.volumeType()).isEqualTo("gp3");
            assertThat(v.sizeGiB()).isEqualTo(10);
            assertThat(v.logicalName()).isEqualTo("wal-volume-" + i);
        }
    }

    @Test
    void fsxIsMultiAzWithThreeZonesAndSingleAzOtherwise() {
        DesiredState three = of(WalType.FSWAL, 3, 3);
        assertThat(three.fileSystems()).singleElement().satisfies(fs -> {
            assertThat(fs.deploymentType()).isEqualTo("MULTI_AZ_2");
            assertThat(fs.subnetIds()).containsExactly("subnet-a", "subnet-b");
            assertThat(fs.throughputMBps()).isEqualTo(768);
        });
        DesiredState one = of(WalType.FSWAL, 3, 1);
        assertThat(one.fileSystems().getFirst().deploymentType()).isEqualTo("SINGLE_AZ_2");
        ProvisioningTarget two = Targets.target(ID, WalType.FSWAL, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1")
                .resized(3, 3, 512, 2);
        assertThat(of(two).fileSystems()).extracting(DesiredState.WalFileSystem::logicalName,
                DesiredState.WalFileSystem::throughputMBps).containsExactly(
                org.assertj.core.groups.Tuple.tuple("wal-fs-0", 512), org.assertj.core.groups.Tuple.tuple("wal-fs-1", 512));
    }

    @Test
    void launchTemplateBootsTheMachineImageAndRunsTheBrokerImageWithTheNodeSpec() {
        DesiredState d = of(WalType.EBS, 3, 1);
        assertThat(d.launchTemplate().imageId()).isEqualTo("ami-0123456789abcdef0");
        String script = new String(Base64.getDecoder().decode(d.launchTemplate().userDataBase64(List.of())),
                StandardCharsets.UTF_8);
        assertThat(script).startsWith("#!/bin/bash\n").contains("BROKER_IMAGE='" + Targets.BROKER_IMAGE + "'",
                "--spec /etc/keel/node-spec.json");
        assertThat(BootScript.brokerImage(script)).isEqualTo(Targets.BROKER_IMAGE);
        String json = BootScript.nodeSpec(script);
        assertThat(json).startsWith("{").endsWith("}")
                .contains("\"instanceId\":\"" + ID + "\"", "\"brokerCount\":3", "\"walType\":\"EBS\"",
                        "\"dataBucket\":\"" + d.dataBucket().name() + "\"", "\"ingestUrl\":\"https://keel.example/ingest\"",
                        "\"walDevice\":\"/dev/sdf\"");
    }

    @Test
    void aBrokerImageNotPinnedByDigestIsRefused() {
        DesiredState d = DesiredState.of(Targets.target(ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1"),
                DEFAULTS, new BootImage("ami-0123456789abcdef0", "registry.example/keel-broker:1.7.4"));
        assertThatThrownBy(() -> d.launchTemplate().userDataBase64(List.of())).isInstanceOf(ProvisioningException.class)
                .hasMessageContaining("@sha256:");
    }

    @Test
    void specVersionChangesWithWhatTheBrokersBoot() {
        ProvisioningTarget t = Targets.target(ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1");
        String now = of(t).launchTemplate().specVersion();
        assertThat(DesiredState.of(t, DEFAULTS, new BootImage("ami-0fedcba9876543210", Targets.BROKER_IMAGE))
                .launchTemplate().specVersion()).isNotEqualTo(now);
    }

    @Test
    void specVersionChangesWithTheNodeSpec() {
        String three = of(WalType.S3, 3, 3).launchTemplate().specVersion();
        assertThat(of(WalType.S3, 3, 3).launchTemplate().specVersion()).isEqualTo(three);
        assertThat(of(WalType.S3, 6, 3).launchTemplate().specVersion()).isNotEqualTo(three);
    }

    @Test
    void everyResourceIsTaggedWithTheInstanceItsNameAndKeel() {
        DesiredState d = of(WalType.S3, 3, 3);
        assertThat(d.tags("data-bucket")).containsEntry("byoc:instance-id", ID.toString())
                .containsEntry("byoc:resource", "data-bucket").containsEntry("byoc:managed-by", "keel");
        assertThat(d.brokerTags(2, "broker-2")).containsEntry("byoc:node-id", "2")
                .containsEntry("byoc:resource", "broker-2")
                .containsEntry("byoc:spec-version", d.launchTemplate().specVersion());
    }

    @Test
    void partitionFollowsTheRegion() {
        assertThat(DesiredState.partition("cn-north-1")).isEqualTo("aws-cn");
        assertThat(DesiredState.partition("us-gov-west-1")).isEqualTo("aws-us-gov");
        assertThat(DesiredState.partition("eu-west-1")).isEqualTo("aws");
    }

    @Test
    void noSubnetsIsAPermanentFailure() {
        ProvisioningTarget t = Targets.target(ID, WalType.S3, 3, List.of(), Targets.ACCOUNT, "vpc-1");
        assertThatThrownBy(() -> of(t)).isInstanceOf(ProvisioningException.class)
                .satisfies(e -> assertThat(((ProvisioningException) e).retryable()).isFalse());
    }
}

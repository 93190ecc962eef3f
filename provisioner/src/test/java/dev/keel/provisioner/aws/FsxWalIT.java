package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.WalType;

/**
 * FSWAL against LocalStack ({@code KEEL_AWS_ENDPOINT}) for EC2/IAM/S3 and the project's own FSx
 * emulator ({@code KEEL_FSX_ENDPOINT}, written by {@code scripts/stack start --env test}).
 */
class FsxWalIT {

    static LocalStackAccount aws;
    static AwsProvisioningDriver driver;

    @BeforeAll
    static void setUp() {
        aws = new LocalStackAccount();
        driver = aws.driverWithFsx();
    }

    @AfterAll
    static void close() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void fileSystemsAreCreatedResizedAddedRemovedAndDeleted() {
        ProvisioningTarget t = new ProvisioningTarget(UUID.randomUUID(), "it-fswal", LocalStackAccount.REGION,
                aws.account, aws.vpcId, aws.zones, WalType.FSWAL, 3, 384, 1, "t3.micro", 3, "4.1.0",
                Inventory.EMPTY, null);
        t = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE, t);
        ObservedState seen = driver.observe(t);
        assertThat(seen.ofType(ObservedState.FSX_FILE_SYSTEM)).singleElement().satisfies(fs -> {
            assertThat(fs.logicalName()).isEqualTo("wal-fs-0");
            assertThat(fs.attribute("throughputMBps")).isEqualTo("384");
            assertThat(fs.attribute("lifecycle")).isEqualTo("AVAILABLE");
        });
        assertThat(seen.ofType(ObservedState.FSX_SVM)).extracting(ObservedState.Resource::logicalName)
                .containsExactly("wal-svm-0");
        assertThat(seen.ofType(ObservedState.FSX_VOLUME)).extracting(ObservedState.Resource::logicalName)
                .containsExactly("wal-fs-volume-0");
        assertThat(t.observed().resources()).extracting(Inventory.CloudResource::type).contains("fsx-file-system");
        String svmDns = seen.ofType(ObservedState.FSX_SVM).getFirst().attribute("nfsDnsName");
        assertThat(svmDns).isNotBlank();
        assertThat(brokerUserData(t)).as("brokers learn where to mount the WAL from")
                .contains("\"walFileSystems\":1")
                .contains("\"walNfsEndpoints\":[{\"index\":0,\"dnsName\":\"" + svmDns + "\",\"junctionPath\":\"/wal\"}]");

        // idempotent
        Set<String> before = ids(t);
        for (String step : driver.steps(ChangeKind.CREATE, t)) {
            t = t.withObserved(driver.apply(step, t));
        }
        assertThat(ids(t)).isEqualTo(before);
        assertThat(driver.plan(ChangeKind.UPDATE, t, true)).isEmpty();

        // throughput 384 -> 768 and a second file system
        ProvisioningTarget grown = t.resized(3, 3, 768, 2);
        assertThat(driver.plan(ChangeKind.UPDATE, grown, true)).extracting(ResourceChange::toString)
                .anyMatch(s -> s.startsWith("~ fsx-file-system wal-fs-0") && s.endsWith("384 -> 768 MBps"))
                .anyMatch(s -> s.startsWith("+ fsx-file-system wal-fs-1"));
        grown = AwsProvisioningDriverIT.run(driver, ChangeKind.UPDATE, grown);
        assertThat(driver.observe(grown).ofType(ObservedState.FSX_FILE_SYSTEM))
                .extracting(ObservedState.Resource::logicalName, r -> r.attribute("throughputMBps"))
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("wal-fs-0", "768"),
                        org.assertj.core.groups.Tuple.tuple("wal-fs-1", "768"));
        assertThat(brokerUserData(grown)).contains("\"walFileSystems\":2").contains("{\"index\":1,\"dnsName\":");

        // back to one file system: wal-fs-1 with its SVM and volume goes
        ProvisioningTarget shrunk = AwsProvisioningDriverIT.run(driver, ChangeKind.UPDATE, grown.resized(3, 3, 768, 1));
        assertThat(driver.observe(shrunk).resources()).filteredOn(r -> r.type().startsWith("fsx"))
                .extracting(ObservedState.Resource::logicalName)
                .containsExactlyInAnyOrder("wal-fs-0", "wal-svm-0", "wal-fs-volume-0");

        AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, shrunk);
        assertThat(driver.sweep(shrunk)).isEmpty();
    }

    /** The node spec new brokers boot with: the launch template's default version's user data. */
    private static String brokerUserData(ProvisioningTarget t) {
        String data = aws.ec2.describeLaunchTemplateVersions(b -> b
                        .launchTemplateName(DesiredState.prefix(t.instanceId()) + "-brokers").versions("$Default"))
                .launchTemplateVersions().getFirst().launchTemplateData().userData();
        return BootScript.nodeSpec(new String(java.util.Base64.getDecoder().decode(data),
                java.nio.charset.StandardCharsets.UTF_8));
    }

    static Set<String> ids(ProvisioningTarget t) {
        return driver.sweep(t).stream().map(r -> r.type() + ":" + r.logicalName() + ":" + r.id())
                .collect(java.util.stream.Collectors.toSet());
    }
}

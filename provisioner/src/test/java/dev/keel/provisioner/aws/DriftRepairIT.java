package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.WalType;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.fsx.FSxClient;

/**
 * Resources deleted behind Keel's back — a bucket's policy, the brokers' security group, a WAL file system with its SVM
 * and volume — show in a repair's plan, which the drift check runs, and the repair puts them back, with what depends
 * on them (the launch template, the brokers' group) brought along. Against LocalStack and the FSx emulator.
 */
class DriftRepairIT {

    static final LocalStackAccount aws = new LocalStackAccount();
    @AutoClose
    static final AwsProvisioningDriver driver = aws.driverWithFsx();
    @AutoClose
    static final FSxClient fsx = FSxClient.builder().endpointOverride(LocalStackAccount.fsxEndpoint())
            .region(Region.of(LocalStackAccount.REGION)).credentialsProvider(LocalStackAccount.ROOT).build();

    @Test
    void aBucketPolicyASecurityGroupAndAFileSystemDeletedOutsideKeelAreFoundAndRepaired() {
        ProvisioningTarget t = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE, new ProvisioningTarget(
                UUID.randomUUID(), "drift", LocalStackAccount.REGION, aws.account, aws.vpcId, aws.zones, WalType.FSWAL,
                3, 384, 2, "t3.micro", 3, "4.1.0", Inventory.EMPTY, null));
        DesiredState desired = driver.desired(t);
        assertThat(driver.plan(ChangeKind.REPAIR, t, true)).isEmpty();

        aws.s3.deleteBucketPolicy(b -> b.bucket(desired.dataBucket().name()));
        assertThat(repairPlan(t)).containsExactly("~ s3-bucket data-bucket (" + desired.dataBucket().name()
                + "): its policy is missing: set it up again");
        t = repaired(t);
        assertThat(aws.s3.getBucketPolicy(b -> b.bucket(desired.dataBucket().name())).policy())
                .contains("aws:SecureTransport");

        String group = driver.observe(t).find(ObservedState.SECURITY_GROUP, "security-group").orElseThrow().id();
        aws.ec2.deleteSecurityGroup(b -> b.groupId(group));
        assertThat(repairPlan(t)).anyMatch(c -> c.startsWith("+ security-group security-group"))
                .anyMatch(c -> c.startsWith("~ launch-template launch-template") && c.contains("security group"))
                .filteredOn(c -> c.startsWith("~ ec2-instance")).hasSize(3);
        t = repaired(t);
        String recreated = driver.observe(t).find(ObservedState.SECURITY_GROUP, "security-group").orElseThrow().id();
        assertThat(recreated).isNotEqualTo(group);
        List<String> brokers = t.observed().brokers().stream().map(Inventory.Broker::machineId).toList();
        assertThat(aws.ec2.describeInstances(b -> b.instanceIds(brokers)).reservations().stream()
                .flatMap(r -> r.instances().stream()).map(i -> i.securityGroups().getFirst().groupId()))
                .as("every broker moved to the new group").containsOnly(recreated);

        ObservedState seen = driver.observe(t);
        deleteBehindKeelsBack(seen, "wal-fs-volume-1", "wal-svm-1", "wal-fs-1");
        assertThat(repairPlan(t)).contains("+ fsx-file-system wal-fs-1: MULTI_AZ_2 ONTAP, 384 MBps",
                "+ fsx-svm wal-svm-1: storage virtual machine keelwal1", "+ fsx-volume wal-fs-volume-1: ONTAP volume keel_wal_1",
                "~ launch-template launch-template (" + seen.find(ObservedState.LAUNCH_TEMPLATE, "launch-template")
                        .orElseThrow().id() + "): new default version: the WAL file systems' NFS endpoints changed");
        t = repaired(t);
        assertThat(driver.observe(t).ofType(ObservedState.FSX_FILE_SYSTEM)).hasSize(2);

        AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, t);
        assertThat(driver.sweep(t)).isEmpty();
    }

    private static List<String> repairPlan(ProvisioningTarget t) {
        return driver.plan(ChangeKind.REPAIR, t, true).stream().map(ResourceChange::toString).toList();
    }

    private static ProvisioningTarget repaired(ProvisioningTarget t) {
        ProvisioningTarget repaired = AwsProvisioningDriverIT.run(driver, ChangeKind.REPAIR, t);
        assertThat(driver.plan(ChangeKind.REPAIR, repaired, true)).as("nothing left to repair").isEmpty();
        return repaired;
    }

    /** Deletes a WAL file system the way a person would: its volume, then its SVM, then itself, each gone before the next. */
    private static void deleteBehindKeelsBack(ObservedState seen, String volume, String svm, String fileSystem) {
        String volumeId = seen.find(ObservedState.FSX_VOLUME, volume).orElseThrow().id();
        String svmId = seen.find(ObservedState.FSX_SVM, svm).orElseThrow().id();
        String fileSystemId = seen.find(ObservedState.FSX_FILE_SYSTEM, fileSystem).orElseThrow().id();
        fsx.deleteVolume(b -> b.volumeId(volumeId).ontapConfiguration(o -> o.skipFinalBackup(true)));
        await().atMost(Duration.ofSeconds(60)).until(() -> fsx.describeVolumes(b -> b
                .filters(f -> f.name("storage-virtual-machine-id").values(svmId))).volumes().stream()
                .noneMatch(v -> v.volumeId().equals(volumeId)));
        fsx.deleteStorageVirtualMachine(b -> b.storageVirtualMachineId(svmId));
        await().atMost(Duration.ofSeconds(60)).until(() -> fsx
                .describeStorageVirtualMachines(b -> b.filters(f -> f.name("file-system-id").values(fileSystemId)))
                .storageVirtualMachines().isEmpty());
        fsx.deleteFileSystem(b -> b.fileSystemId(fileSystemId));
        await().atMost(Duration.ofSeconds(60)).until(() -> fsx
                .describeFileSystems().fileSystems().stream().noneMatch(f -> f.fileSystemId().equals(fileSystemId)));
    }
}

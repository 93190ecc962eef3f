package dev.keel.awsemulator;

import static dev.keel.awsemulator.SdkClients.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.AdministrativeActionType;
import software.amazon.awssdk.services.fsx.model.BadRequestException;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.FileSystem;
import software.amazon.awssdk.services.fsx.model.FileSystemLifecycle;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.fsx.model.FileSystemType;
import software.amazon.awssdk.services.fsx.model.IncompatibleParameterErrorException;
import software.amazon.awssdk.services.fsx.model.InvalidNetworkSettingsException;
import software.amazon.awssdk.services.fsx.model.OntapDeploymentType;
import software.amazon.awssdk.services.fsx.model.StorageVirtualMachine;
import software.amazon.awssdk.services.fsx.model.StorageVirtualMachineFilterName;
import software.amazon.awssdk.services.fsx.model.StorageVirtualMachineLifecycle;
import software.amazon.awssdk.services.fsx.model.StorageVirtualMachineNotFoundException;
import software.amazon.awssdk.services.fsx.model.Status;
import software.amazon.awssdk.services.fsx.model.Tag;
import software.amazon.awssdk.services.fsx.model.Volume;
import software.amazon.awssdk.services.fsx.model.VolumeFilterName;
import software.amazon.awssdk.services.fsx.model.VolumeLifecycle;
import software.amazon.awssdk.services.fsx.model.VolumeNotFoundException;
import software.amazon.awssdk.services.fsx.model.VolumeType;

/** Drives the emulator's FSx for ONTAP with the real AWS SDK client. */
class FsxEmulatorTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static AwsApiEmulator emulator;
    private static FSxClient fsx;

    @BeforeAll
    static void start() throws Exception {
        emulator = AwsApiEmulator.start(AwsApiEmulator.Options.defaults().withPort(0)
                .withDelays(Duration.ofSeconds(1), Duration.ofMillis(500)));
        fsx = SdkClients.fsx(emulator.endpoint());
    }

    @AfterAll
    static void stop() {
        fsx.close();
        emulator.close();
    }

    private static CreateFileSystemRequest.Builder multiAz(String token, int throughput) {
        return CreateFileSystemRequest.builder()
                .clientRequestToken(token)
                .fileSystemType(FileSystemType.ONTAP)
                .storageCapacity(1024)
                .subnetIds("subnet-0aaaaaaaaaaaaaaa1", "subnet-0bbbbbbbbbbbbbbb2")
                .tags(Tag.builder().key("byoc:instance-id").value("inst-1").build())
                .ontapConfiguration(o -> o.deploymentType(OntapDeploymentType.MULTI_AZ_2)
                        .throughputCapacity(throughput)
                        .preferredSubnetId("subnet-0aaaaaaaaaaaaaaa1"));
    }

    private static FileSystem describe(String id) {
        return fsx.describeFileSystems(r -> r.fileSystemIds(id)).fileSystems().getFirst();
    }

    private static FileSystem availableFileSystem() {
        FileSystem created = fsx.createFileSystem(multiAz(UUID.randomUUID().toString(), 384).build()).fileSystem();
        await("file system AVAILABLE", WAIT, () -> describe(created.fileSystemId()).lifecycle() == FileSystemLifecycle.AVAILABLE);
        return describe(created.fileSystemId());
    }

    @Test
    void fileSystemGoesFromCreatingToAvailableWithEndpoints() {
        FileSystem created = fsx.createFileSystem(multiAz("lifecycle-token", 384).build()).fileSystem();

        assertThat(created.lifecycle()).isEqualTo(FileSystemLifecycle.CREATING);
        assertThat(created.fileSystemId()).matches("fs-[0-9a-f]{17}");
        assertThat(created.fileSystemType()).isEqualTo(FileSystemType.ONTAP);
        assertThat(created.creationTime()).isNotNull();
        assertThat(created.resourceARN()).startsWith("arn:aws:fsx:us-east-1:000000000000:file-system/" + created.fileSystemId());
        assertThat(created.ontapConfiguration().throughputCapacity()).isEqualTo(384);
        assertThat(created.ontapConfiguration().deploymentType()).isEqualTo(OntapDeploymentType.MULTI_AZ_2);
        assertThat(created.ontapConfiguration().endpoints().management().dnsName())
                .isEqualTo("management." + created.fileSystemId() + ".fsx.us-east-1.amazonaws.com");
        assertThat(created.ontapConfiguration().endpoints().intercluster().ipAddresses()).hasSize(2);
        assertThat(created.dnsName()).contains(created.fileSystemId());
        assertThat(created.tags()).containsExactly(Tag.builder().key("byoc:instance-id").value("inst-1").build());

        await("AVAILABLE", WAIT, () -> describe(created.fileSystemId()).lifecycle() == FileSystemLifecycle.AVAILABLE);
    }

    @Test
    void createIsIdempotentByClientRequestToken() {
        String token = UUID.randomUUID().toString();
        FileSystem first = fsx.createFileSystem(multiAz(token, 384).build()).fileSystem();
        FileSystem again = fsx.createFileSystem(multiAz(token, 384).build()).fileSystem();

        assertThat(again.fileSystemId()).isEqualTo(first.fileSystemId());
        assertThat(fsx.describeFileSystems().fileSystems())
                .filteredOn(fs -> fs.fileSystemId().equals(first.fileSystemId())).hasSize(1);
    }

    @Test
    void reusingATokenWithOtherParametersIsIncompatible() {
        String token = UUID.randomUUID().toString();
        fsx.createFileSystem(multiAz(token, 384).build());

        assertThatThrownBy(() -> fsx.createFileSystem(multiAz(token, 768).build()))
                .isInstanceOfSatisfying(IncompatibleParameterErrorException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("IncompatibleParameterError");
                    assertThat(e.parameter()).isEqualTo("ClientRequestToken");
                });
    }

    @Test
    void createValidatesLikeAws() {
        assertThatThrownBy(() -> fsx.createFileSystem(multiAz(null, 1000).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("384");
        assertThatThrownBy(() -> fsx.createFileSystem(multiAz(null, 384)
                        .ontapConfiguration(o -> o.deploymentType(OntapDeploymentType.SINGLE_AZ_1).throughputCapacity(128))
                        .build()))
                .isInstanceOf(InvalidNetworkSettingsException.class);
        assertThatThrownBy(() -> fsx.createFileSystem(multiAz(null, 384).subnetIds("subnet-1", "subnet-2").build()))
                .isInstanceOf(InvalidNetworkSettingsException.class);
        assertThatThrownBy(() -> fsx.createFileSystem(multiAz(null, 384).storageCapacity(100).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("StorageCapacity");

        FileSystem single = fsx.createFileSystem(CreateFileSystemRequest.builder()
                .fileSystemType(FileSystemType.ONTAP).storageCapacity(2048).subnetIds("subnet-0ccccccccccccccc3")
                .ontapConfiguration(o -> o.deploymentType(OntapDeploymentType.SINGLE_AZ_2).haPairs(2)
                        .throughputCapacityPerHAPair(3072))
                .build()).fileSystem();
        assertThat(single.ontapConfiguration().throughputCapacity()).isEqualTo(6144);
        assertThat(single.ontapConfiguration().haPairs()).isEqualTo(2);
    }

    @Test
    void throughputUpdateGoesThroughUpdating() {
        FileSystem fs = availableFileSystem();

        String token = UUID.randomUUID().toString();
        FileSystem updating = fsx.updateFileSystem(r -> r.fileSystemId(fs.fileSystemId()).clientRequestToken(token)
                .ontapConfiguration(o -> o.throughputCapacity(768))).fileSystem();
        FileSystem retried = fsx.updateFileSystem(r -> r.fileSystemId(fs.fileSystemId()).clientRequestToken(token)
                .ontapConfiguration(o -> o.throughputCapacity(768))).fileSystem();
        assertThat(retried.administrativeActions()).as("a retry with the same token is not a second update").hasSize(1);

        assertThat(updating.lifecycle()).isEqualTo(FileSystemLifecycle.UPDATING);
        assertThat(updating.ontapConfiguration().throughputCapacity()).isEqualTo(384);
        assertThat(updating.administrativeActions()).singleElement().satisfies(action -> {
            assertThat(action.administrativeActionType()).isEqualTo(AdministrativeActionType.FILE_SYSTEM_UPDATE);
            assertThat(action.status()).isEqualTo(Status.IN_PROGRESS);
            assertThat(action.targetFileSystemValues().ontapConfiguration().throughputCapacity()).isEqualTo(768);
        });
        assertThatThrownBy(() -> fsx.updateFileSystem(r -> r.fileSystemId(fs.fileSystemId())
                .ontapConfiguration(o -> o.throughputCapacity(1536))))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("UPDATING");

        await("AVAILABLE after update", WAIT, () -> describe(fs.fileSystemId()).lifecycle() == FileSystemLifecycle.AVAILABLE);
        FileSystem updated = describe(fs.fileSystemId());
        assertThat(updated.ontapConfiguration().throughputCapacity()).isEqualTo(768);
        assertThat(updated.administrativeActions()).singleElement()
                .satisfies(action -> assertThat(action.status()).isEqualTo(Status.COMPLETED));
    }

    @Test
    void svmAndVolumeLifecycleAndDeleteOrdering() {
        FileSystem fs = availableFileSystem();

        StorageVirtualMachine svm = fsx.createStorageVirtualMachine(r -> r.fileSystemId(fs.fileSystemId())
                .name("keel_svm").tags(Tag.builder().key("byoc:resource").value("svm").build())).storageVirtualMachine();
        assertThat(svm.lifecycle()).isEqualTo(StorageVirtualMachineLifecycle.CREATING);
        assertThat(svm.storageVirtualMachineId()).matches("svm-[0-9a-f]{17}");
        assertThat(svm.endpoints().nfs().dnsName()).isEqualTo(
                svm.storageVirtualMachineId() + "." + fs.fileSystemId() + ".fsx.us-east-1.amazonaws.com");
        assertThat(svm.endpoints().nfs().ipAddresses()).isNotEmpty();

        assertThatThrownBy(() -> fsx.createVolume(r -> r.volumeType(VolumeType.ONTAP).name("wal")
                .ontapConfiguration(o -> o.storageVirtualMachineId(svm.storageVirtualMachineId())
                        .junctionPath("/wal").sizeInMegabytes(102400))))
                .as("volume on an SVM that is still CREATING").isInstanceOf(BadRequestException.class);
        await("SVM CREATED", WAIT, () -> fsx.describeStorageVirtualMachines(r -> r.filters(f -> f
                        .name(StorageVirtualMachineFilterName.FILE_SYSTEM_ID).values(fs.fileSystemId())))
                .storageVirtualMachines().getFirst().lifecycle() == StorageVirtualMachineLifecycle.CREATED);

        Volume volume = fsx.createVolume(r -> r.volumeType(VolumeType.ONTAP).name("wal")
                .ontapConfiguration(o -> o.storageVirtualMachineId(svm.storageVirtualMachineId())
                        .junctionPath("/wal").sizeInMegabytes(102400))).volume();
        assertThat(volume.lifecycle()).isEqualTo(VolumeLifecycle.CREATING);
        assertThat(volume.volumeId()).matches("fsvol-[0-9a-f]{17}");
        assertThat(volume.ontapConfiguration().junctionPath()).isEqualTo("/wal");
        assertThat(volume.ontapConfiguration().sizeInMegabytes()).isEqualTo(102400);
        await("volume CREATED", WAIT, () -> fsx.describeVolumes(r -> r.volumeIds(volume.volumeId()))
                .volumes().getFirst().lifecycle() == VolumeLifecycle.CREATED);

        List<Volume> onSvm = fsx.describeVolumes(r -> r.filters(f -> f.name(VolumeFilterName.STORAGE_VIRTUAL_MACHINE_ID)
                .values(svm.storageVirtualMachineId()))).volumes();
        assertThat(onSvm).extracting(Volume::name).containsExactlyInAnyOrder("keel_svm_root", "wal");

        // delete ordering, as in AWS: volumes, then SVMs, then the file system
        assertThatThrownBy(() -> fsx.deleteFileSystem(r -> r.fileSystemId(fs.fileSystemId())))
                .isInstanceOf(BadRequestException.class).hasMessageContaining(svm.storageVirtualMachineId());
        assertThatThrownBy(() -> fsx.deleteStorageVirtualMachine(r -> r.storageVirtualMachineId(svm.storageVirtualMachineId())))
                .isInstanceOf(BadRequestException.class).hasMessageContaining(volume.volumeId());

        assertThat(fsx.deleteVolume(r -> r.volumeId(volume.volumeId())).lifecycle()).isEqualTo(VolumeLifecycle.DELETING);
        await("volume gone", WAIT, () -> {
            try {
                fsx.describeVolumes(r -> r.volumeIds(volume.volumeId()));
                return false;
            } catch (VolumeNotFoundException e) {
                return true;
            }
        });
        assertThat(fsx.deleteStorageVirtualMachine(r -> r.storageVirtualMachineId(svm.storageVirtualMachineId())).lifecycle())
                .isEqualTo(StorageVirtualMachineLifecycle.DELETING);
        await("SVM gone", WAIT, () -> fsx.describeStorageVirtualMachines(r -> r.filters(f -> f
                .name(StorageVirtualMachineFilterName.FILE_SYSTEM_ID).values(fs.fileSystemId()))).storageVirtualMachines().isEmpty());
        assertThatThrownBy(() -> fsx.describeStorageVirtualMachines(r -> r.storageVirtualMachineIds(svm.storageVirtualMachineId())))
                .isInstanceOf(StorageVirtualMachineNotFoundException.class);

        assertThat(fsx.deleteFileSystem(r -> r.fileSystemId(fs.fileSystemId())).lifecycle()).isEqualTo(FileSystemLifecycle.DELETING);
        assertThat(describe(fs.fileSystemId()).lifecycle()).isEqualTo(FileSystemLifecycle.DELETING);
        await("file system gone", WAIT, () -> {
            try {
                describe(fs.fileSystemId());
                return false;
            } catch (FileSystemNotFoundException e) {
                return true;
            }
        });
        assertThatThrownBy(() -> fsx.deleteFileSystem(r -> r.fileSystemId(fs.fileSystemId())))
                .isInstanceOf(FileSystemNotFoundException.class);
    }

    @Test
    void tagsCanBeAddedListedAndRemoved() {
        FileSystem fs = fsx.createFileSystem(multiAz(null, 384).build()).fileSystem();
        String arn = fs.resourceARN();

        fsx.tagResource(r -> r.resourceARN(arn).tags(Tag.builder().key("byoc:resource").value("fsx-0").build(),
                Tag.builder().key("owner").value("keel").build()));
        assertThat(fsx.listTagsForResource(r -> r.resourceARN(arn)).tags()).extracting(Tag::key)
                .containsExactly("byoc:instance-id", "byoc:resource", "owner");

        fsx.untagResource(r -> r.resourceARN(arn).tagKeys("owner"));
        assertThat(describe(fs.fileSystemId()).tags()).extracting(Tag::key).containsExactly("byoc:instance-id", "byoc:resource");

        assertThatThrownBy(() -> fsx.listTagsForResource(r -> r.resourceARN(arn.replace(fs.fileSystemId(), "fs-00000000000000000"))))
                .isInstanceOf(software.amazon.awssdk.services.fsx.model.ResourceNotFoundException.class);
    }

    @Test
    void describeFileSystemsPaginates() {
        for (int i = 0; i < 3; i++) {
            fsx.createFileSystem(multiAz(null, 384).build());
        }
        int total = fsx.describeFileSystems().fileSystems().size();
        var firstPage = fsx.describeFileSystems(r -> r.maxResults(2));
        assertThat(firstPage.fileSystems()).hasSize(2);
        assertThat(firstPage.nextToken()).isNotNull();

        List<String> all = fsx.describeFileSystemsPaginator(r -> r.maxResults(2)).stream().flatMap(page -> page.fileSystems().stream())
                .map(FileSystem::fileSystemId).toList();
        assertThat(all).hasSize(total).doesNotHaveDuplicates();
    }

    @Test
    void unknownIdsAreNotFound() {
        assertThatThrownBy(() -> fsx.describeFileSystems(r -> r.fileSystemIds("fs-0123456789abcdef0")))
                .isInstanceOfSatisfying(FileSystemNotFoundException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage()).contains("fs-0123456789abcdef0"));
        assertThatThrownBy(() -> fsx.deleteVolume(r -> r.volumeId("fsvol-0123456789abcdef0")))
                .isInstanceOf(VolumeNotFoundException.class);
        assertThatThrownBy(() -> fsx.createStorageVirtualMachine(r -> r.fileSystemId("fs-0123456789abcdef0").name("svm")))
                .isInstanceOf(FileSystemNotFoundException.class);
    }
}

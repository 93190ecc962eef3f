package dev.keel.awsemulator;

import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * FSx for NetApp ONTAP (file systems, storage virtual machines, volumes, tags), in memory, one class per resource.
 * Lifecycles follow the clock, as long as {@link FsxLifecycles} says.
 */
final class Fsx {

    static final String TARGET_PREFIX = "AWSSimbaAPIService_v20180301";

    private final FsxStore store;
    private final FsxFileSystems fileSystems;
    private final FsxStorageVirtualMachines svms;
    private final FsxVolumes volumes;
    private final FsxTags tags;

    Fsx(java.time.Clock clock, FsxLifecycles lifecycles) {
        this.store = new FsxStore(clock, lifecycles);
        this.fileSystems = new FsxFileSystems(store);
        this.svms = new FsxStorageVirtualMachines(store, fileSystems);
        this.volumes = new FsxVolumes(store, fileSystems, svms);
        this.tags = new FsxTags(store);
    }

    synchronized JsonNode call(String operation, JsonNode request, AwsApiEmulator.Caller caller) {
        sweep();
        return switch (operation) {
            case "CreateFileSystem" -> fileSystems.createFileSystem(request, caller);
            case "DescribeFileSystems" -> fileSystems.describeFileSystems(request);
            case "UpdateFileSystem" -> fileSystems.updateFileSystem(request);
            case "DeleteFileSystem" -> fileSystems.deleteFileSystem(request);
            case "CreateStorageVirtualMachine" -> svms.createSvm(request);
            case "DescribeStorageVirtualMachines" -> svms.describeSvms(request);
            case "DeleteStorageVirtualMachine" -> svms.deleteSvm(request);
            case "CreateVolume" -> volumes.createVolume(request);
            case "DescribeVolumes" -> volumes.describeVolumes(request);
            case "DeleteVolume" -> volumes.deleteVolume(request);
            case "TagResource" -> tags.tagResource(request);
            case "UntagResource" -> tags.untagResource(request);
            case "ListTagsForResource" -> tags.listTags(request);
            default -> throw new AwsError("UnknownOperationException",
                    "FSx operation " + operation + " is not emulated by Keel's AWS API emulator"
                            + " (it emulates ONTAP file systems, SVMs, volumes and tags)");
        };
    }

    synchronized void reset() {
        store.clear();
    }

    /** Everything, described, for the admin API. */
    synchronized JsonNode dump() {
        sweep();
        ObjectNode out = Json.object();
        out.set("FileSystems", Json.arrayOf(List.copyOf(store.fileSystems.values()), fileSystems::describe));
        out.set("StorageVirtualMachines", Json.arrayOf(List.copyOf(store.svms.values()), store::describe));
        out.set("Volumes", Json.arrayOf(List.copyOf(store.volumes.values()), store::describe));
        return out;
    }

    /** Applies finished updates and forgets what finished deleting. */
    private void sweep() {
        fileSystems.applyFinishedUpdates(store.clock.instant());
        store.forgetDeleted();
    }
}

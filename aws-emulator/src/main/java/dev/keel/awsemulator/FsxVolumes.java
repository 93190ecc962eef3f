package dev.keel.awsemulator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** FSx for ONTAP volumes: {@code CREATING}, then {@code CREATED} after the volume create duration. */
record FsxVolumes(FsxStore store, FsxFileSystems fileSystems, FsxStorageVirtualMachines svms) {

    /** A volume; {@code root}: the SVM's root volume, which goes with the SVM. */
    record Volume(String id, String arn, Instant readyAt, String fileSystemId, String svmId, String name,
                  String junctionPath, boolean root, ObjectNode base, FsxStore.Changes changes)
            implements FsxStore.Resource {
    }

    JsonNode createVolume(JsonNode request) {
        String token = Json.string(request, "ClientRequestToken");
        FsxStore.Idempotent earlier = store.replay("CreateVolume", token, request);
        if (earlier != null && store.volumes.containsKey(earlier.resourceId())) {
            return Json.object().set("Volume", store.describe(store.volumes.get(earlier.resourceId())));
        }
        String type = Json.requiredString(request, "VolumeType", "BadRequest");
        if (!"ONTAP".equals(type)) {
            throw new AwsError("BadRequest", "VolumeType " + type
                    + " is not emulated: Keel's AWS API emulator supports ONTAP volumes only");
        }
        String name = Json.requiredString(request, "Name", "BadRequest");
        if (name.length() > 203 || !FsxRequests.ONTAP_NAME.matcher(name).matches()) {
            throw new AwsError("BadRequest", "Invalid volume name '" + name
                    + "': up to 203 letters, digits and underscores");
        }
        JsonNode ontap = Json.struct(request, "OntapConfiguration");
        if (ontap.isMissingNode()) {
            throw new AwsError("MissingVolumeConfiguration", "OntapConfiguration is required for ONTAP volumes");
        }
        FsxStorageVirtualMachines.Svm svm = svms.svm(Json.requiredString(ontap, "StorageVirtualMachineId", "BadRequest"));
        String svmLifecycle = store.childLifecycle(svm);
        if (!"CREATED".equals(svmLifecycle)) {
            throw new AwsError("BadRequest", "Cannot create a volume on storage virtual machine " + svm.id()
                    + " in the " + svmLifecycle + " state");
        }
        FsxFileSystems.FileSystem fs = fileSystems.fileSystem(svm.fileSystemId());
        Integer sizeMb = Json.integer(ontap, "SizeInMegabytes");
        Long sizeBytes = Json.longValue(ontap, "SizeInBytes");
        if (sizeMb == null && sizeBytes == null) {
            throw new AwsError("BadRequest", "SizeInMegabytes or SizeInBytes is required");
        }
        long megabytes = sizeMb != null ? sizeMb : sizeBytes / (1024 * 1024);
        if (sizeMb != null && sizeBytes != null && sizeBytes / (1024 * 1024) != sizeMb) {
            throw new AwsError("BadRequest", "SizeInMegabytes and SizeInBytes disagree");
        }
        if (megabytes < 20 || megabytes > 314_572_800L) {
            throw new AwsError("BadRequest", "The volume size must be between 20 MiB and 300 TiB");
        }
        String junctionPath = Json.string(ontap, "JunctionPath");
        if (junctionPath != null && (!junctionPath.startsWith("/") || junctionPath.length() > 255)) {
            throw new AwsError("BadRequest", "JunctionPath must start with /");
        }
        for (Volume other : store.volumes.values()) {
            if (other.svmId().equals(svm.id()) && other.name().equals(name)) {
                throw new AwsError("BadRequest", "A volume named " + name + " already exists on " + svm.id());
            }
            if (junctionPath != null && other.svmId().equals(svm.id()) && junctionPath.equals(other.junctionPath())) {
                throw new AwsError("BadRequest", "Junction path " + junctionPath + " is already used by " + other.id());
            }
        }
        String style = Objects.requireNonNullElse(Json.string(ontap, "SecurityStyle"),
                svm.base().get("RootVolumeSecurityStyle").stringValue());
        Boolean efficiency = Json.bool(ontap, "StorageEfficiencyEnabled");
        Map<String, String> tags = FsxTags.parse(request);

        Instant now = store.clock.instant();
        String id = "fsvol-" + FsxRequests.hex(17);
        ObjectNode config = volumeConfig(svm.id(), junctionPath, megabytes, style, efficiency != null && efficiency);
        JsonNode tiering = Json.struct(ontap, "TieringPolicy");
        if (!tiering.isMissingNode()) {
            ObjectNode tieringOut = config.putObject("TieringPolicy");
            String policy = Objects.requireNonNullElse(Json.string(tiering, "Name"), "SNAPSHOT_ONLY");
            if (!Set.of("SNAPSHOT_ONLY", "AUTO", "ALL", "NONE").contains(policy)) {
                throw new AwsError("BadRequest", "Invalid TieringPolicy.Name " + policy);
            }
            tieringOut.put("Name", policy);
            Integer cooling = Json.integer(tiering, "CoolingPeriod");
            if (cooling != null) {
                tieringOut.put("CoolingPeriod", cooling);
            }
        }
        String snapshotPolicy = Json.string(ontap, "SnapshotPolicy");
        if (snapshotPolicy != null) {
            config.put("SnapshotPolicy", snapshotPolicy);
        }
        ObjectNode base = volumeBase(fs, id, name, now, config);
        Volume volume = new Volume(id, base.get("ResourceARN").stringValue(), now.plus(store.lifecycles.volumeCreate()),
                fs.id(), svm.id(), name, junctionPath, false, base, new FsxStore.Changes());
        volume.changes().tags.putAll(tags);
        store.volumes.put(id, volume);
        store.remember("CreateVolume", token, request, id);
        return Json.object().set("Volume", store.describe(volume));
    }

    static ObjectNode volumeConfig(String svmId, String junctionPath, long megabytes, String style, boolean efficiency) {
        ObjectNode config = Json.object();
        config.put("FlexCacheEndpointType", "NONE");
        if (junctionPath != null) {
            config.put("JunctionPath", junctionPath);
        }
        config.put("SecurityStyle", style);
        config.put("SizeInMegabytes", (int) Math.min(Integer.MAX_VALUE, megabytes));
        config.put("SizeInBytes", megabytes * 1024 * 1024);
        config.put("StorageEfficiencyEnabled", efficiency);
        config.put("StorageVirtualMachineId", svmId);
        config.put("StorageVirtualMachineRoot", false);
        config.putObject("TieringPolicy").put("Name", "SNAPSHOT_ONLY");
        config.put("UUID", UUID.randomUUID().toString());
        config.put("OntapVolumeType", "RW");
        config.put("SnapshotPolicy", "default");
        config.put("CopyTagsToBackups", false);
        config.put("VolumeStyle", "FLEXVOL");
        return config;
    }

    static ObjectNode volumeBase(FsxFileSystems.FileSystem fs, String id, String name, Instant now, ObjectNode config) {
        ObjectNode base = Json.object();
        base.put("CreationTime", Json.epochSeconds(now));
        base.put("FileSystemId", fs.id());
        base.put("Name", name);
        base.set("OntapConfiguration", config);
        base.put("ResourceARN", "arn:aws:fsx:" + fs.region() + ":" + fs.accountId() + ":volume/" + fs.id() + "/" + id);
        base.put("VolumeId", id);
        base.put("VolumeType", "ONTAP");
        return base;
    }

    JsonNode describeVolumes(JsonNode request) {
        List<String> ids = Json.strings(request, "VolumeIds");
        Map<String, List<String>> filters = FsxRequests.filters(request, Set.of("file-system-id", "storage-virtual-machine-id"));
        List<Volume> selected = new ArrayList<>();
        for (Volume volume : ids.isEmpty() ? List.copyOf(store.volumes.values()) : ids.stream().map(this::volume).toList()) {
            if (FsxRequests.matches(filters, "file-system-id", volume.fileSystemId())
                    && FsxRequests.matches(filters, "storage-virtual-machine-id", volume.svmId())) {
                selected.add(volume);
            }
        }
        return FsxRequests.page(request, selected, "Volumes", store::describe);
    }

    JsonNode deleteVolume(JsonNode request) {
        Volume volume = volume(Json.requiredString(request, "VolumeId", "BadRequest"));
        if (volume.root()) {
            throw new AwsError("BadRequest", "Volume " + volume.id()
                    + " is the root volume of its storage virtual machine; it is deleted with the SVM");
        }
        if (volume.changes().deletingSince == null) {
            volume.changes().deletingSince = store.clock.instant();
        }
        return FsxRequests.deleting("VolumeId", volume.id());
    }

    private Volume volume(String id) {
        return store.find(store.volumes, id, "VolumeNotFound", "Volume");
    }
}

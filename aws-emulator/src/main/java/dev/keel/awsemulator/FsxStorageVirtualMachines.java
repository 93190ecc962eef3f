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

/**
 * FSx for ONTAP storage virtual machines, each with the root volume ONTAP gives it: {@code CREATING}, then
 * {@code CREATED} after the SVM create duration.
 */
record FsxStorageVirtualMachines(FsxStore store, FsxFileSystems fileSystems) {

    record Svm(String id, String arn, Instant readyAt, String fileSystemId, String name, ObjectNode base,
               FsxStore.Changes changes) implements FsxStore.Resource {
    }

    JsonNode createSvm(JsonNode request) {
        String token = Json.string(request, "ClientRequestToken");
        FsxStore.Idempotent earlier = store.replay("CreateStorageVirtualMachine", token, request);
        if (earlier != null && store.svms.containsKey(earlier.resourceId())) {
            return Json.object().set("StorageVirtualMachine", store.describe(store.svms.get(earlier.resourceId())));
        }
        FsxFileSystems.FileSystem fs = fileSystems.fileSystem(Json.requiredString(request, "FileSystemId", "BadRequest"));
        String name = Json.requiredString(request, "Name", "BadRequest");
        if (name.length() > 47 || !FsxRequests.ONTAP_NAME.matcher(name).matches()) {
            throw new AwsError("BadRequest", "Invalid SVM name '" + name
                    + "': up to 47 letters, digits and underscores");
        }
        String lifecycle = fileSystems.lifecycle(fs);
        if (!"AVAILABLE".equals(lifecycle) && !"UPDATING".equals(lifecycle)) {
            throw new AwsError("BadRequest", "Cannot create a storage virtual machine on file system " + fs.id()
                    + " in the " + lifecycle + " state");
        }
        if (store.svms.values().stream().anyMatch(s -> s.fileSystemId().equals(fs.id()) && s.name().equals(name))) {
            throw new AwsError("BadRequest", "A storage virtual machine named " + name + " already exists on " + fs.id());
        }
        String password = Json.string(request, "SvmAdminPassword");
        if (password != null && (password.length() < 8 || password.length() > 50)) {
            throw new AwsError("BadRequest", "SvmAdminPassword must be 8 to 50 characters");
        }
        if (!Json.struct(request, "ActiveDirectoryConfiguration").isMissingNode()) {
            throw new AwsError("UnsupportedOperation",
                    "ActiveDirectoryConfiguration is not emulated by Keel's AWS API emulator");
        }
        String style = Objects.requireNonNullElse(Json.string(request, "RootVolumeSecurityStyle"), "UNIX");
        if (!Set.of("UNIX", "NTFS", "MIXED").contains(style)) {
            throw new AwsError("BadRequest", "Invalid RootVolumeSecurityStyle " + style);
        }
        Map<String, String> tags = FsxTags.parse(request);

        Instant now = store.clock.instant();
        String id = "svm-" + FsxRequests.hex(17);
        String arn = "arn:aws:fsx:" + fs.region() + ":" + fs.accountId() + ":storage-virtual-machine/" + fs.id() + "/" + id;
        String dns = id + "." + fs.id() + ".fsx." + fs.region() + ".amazonaws.com";
        ObjectNode base = Json.object();
        base.put("CreationTime", Json.epochSeconds(now));
        ObjectNode endpoints = base.putObject("Endpoints");
        ObjectNode iscsi = endpoints.putObject("Iscsi");
        iscsi.put("DNSName", "iscsi." + dns);
        iscsi.putArray("IpAddresses").add(FsxRequests.ip()).add(FsxRequests.ip());
        ObjectNode management = endpoints.putObject("Management");
        management.put("DNSName", dns);
        management.putArray("IpAddresses").add(FsxRequests.ip());
        ObjectNode nfs = endpoints.putObject("Nfs");
        nfs.put("DNSName", dns);
        nfs.set("IpAddresses", management.get("IpAddresses").deepCopy());
        base.put("FileSystemId", fs.id());
        base.put("Name", name);
        base.put("ResourceARN", arn);
        base.put("StorageVirtualMachineId", id);
        base.put("Subtype", "DEFAULT");
        base.put("UUID", UUID.randomUUID().toString());
        base.put("RootVolumeSecurityStyle", style);
        Svm svm = new Svm(id, arn, now.plus(store.lifecycles.svmCreate()), fs.id(), name, base, new FsxStore.Changes());
        svm.changes().tags.putAll(tags);
        store.svms.put(id, svm);

        // ONTAP gives every SVM a root volume; AWS lists it and refuses to delete it on its own.
        String rootId = "fsvol-" + FsxRequests.hex(17);
        ObjectNode rootConfig = FsxVolumes.volumeConfig(svm.id(), "/", 1024, style, false);
        rootConfig.put("StorageVirtualMachineRoot", true);
        ObjectNode rootBase = FsxVolumes.volumeBase(fs, rootId, name + "_root", now, rootConfig);
        store.volumes.put(rootId, new FsxVolumes.Volume(rootId, rootBase.get("ResourceARN").stringValue(),
                now.plus(store.lifecycles.svmCreate()), fs.id(), svm.id(), name + "_root", "/", true, rootBase,
                new FsxStore.Changes()));

        store.remember("CreateStorageVirtualMachine", token, request, id);
        return Json.object().set("StorageVirtualMachine", store.describe(svm));
    }

    JsonNode describeSvms(JsonNode request) {
        List<String> ids = Json.strings(request, "StorageVirtualMachineIds");
        Map<String, List<String>> filters = FsxRequests.filters(request, Set.of("file-system-id"));
        List<Svm> selected = new ArrayList<>();
        for (Svm svm : ids.isEmpty() ? List.copyOf(store.svms.values()) : ids.stream().map(this::svm).toList()) {
            if (FsxRequests.matches(filters, "file-system-id", svm.fileSystemId())) {
                selected.add(svm);
            }
        }
        return FsxRequests.page(request, selected, "StorageVirtualMachines", store::describe);
    }

    JsonNode deleteSvm(JsonNode request) {
        Svm svm = svm(Json.requiredString(request, "StorageVirtualMachineId", "BadRequest"));
        if (svm.changes().deletingSince == null) {
            List<String> remaining = store.volumes.values().stream()
                    .filter(v -> v.svmId().equals(svm.id()) && !v.root()).map(v -> v.id()).toList();
            if (!remaining.isEmpty()) {
                throw new AwsError("BadRequest", "Cannot delete storage virtual machine " + svm.id()
                        + " while it has volumes: delete " + String.join(", ", remaining) + " first");
            }
            Instant now = store.clock.instant();
            svm.changes().deletingSince = now;
            store.volumes.values().stream().filter(v -> v.svmId().equals(svm.id()) && v.changes().deletingSince == null)
                    .forEach(v -> v.changes().deletingSince = now);
        }
        return FsxRequests.deleting("StorageVirtualMachineId", svm.id());
    }

    Svm svm(String id) {
        return store.find(store.svms, id, "StorageVirtualMachineNotFound", "Storage virtual machine");
    }

}

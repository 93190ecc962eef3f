package dev.keel.awsemulator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * FSx for ONTAP file systems: created {@code CREATING}, {@code AVAILABLE} after the create duration; a throughput
 * update makes them {@code UPDATING} (with an administrative action) for the update duration.
 */
record FsxFileSystems(FsxStore store) {

    private static final Set<String> DEPLOYMENT_TYPES = Set.of("MULTI_AZ_1", "MULTI_AZ_2", "SINGLE_AZ_1", "SINGLE_AZ_2");
    /** Throughput per HA pair (MBps) that AWS allows for each deployment type. */
    private static final Map<String, List<Integer>> THROUGHPUT_PER_HA_PAIR = Map.of(
            "SINGLE_AZ_1", List.of(128, 256, 512, 1024, 2048, 4096),
            "MULTI_AZ_1", List.of(128, 256, 512, 1024, 2048, 4096),
            "SINGLE_AZ_2", List.of(1536, 3072, 6144),
            "MULTI_AZ_2", List.of(384, 768, 1536, 3072, 6144));
    private static final Pattern SUBNET_ID = Pattern.compile("subnet-[0-9a-f]{8,17}");
    private static final Pattern SECURITY_GROUP_ID = Pattern.compile("sg-[0-9a-f]{8,17}");
    private static final Pattern ROUTE_TABLE_ID = Pattern.compile("rtb-[0-9a-f]{8,17}");
    private static final Pattern WEEKLY_TIME = Pattern.compile("[1-7]:([01]\\d|2[0-3]):([0-5]\\d)");
    private static final Pattern DAILY_TIME = Pattern.compile("([01]\\d|2[0-3]):([0-5]\\d)");

    /** A file system; {@code throughput} is its throughput per HA pair now, with the updates asked of it. */
    record FileSystem(String id, String arn, Instant readyAt, String region, String accountId, String deploymentType,
                      int haPairs, ObjectNode base, Throughput throughput, FsxStore.Changes changes)
            implements FsxStore.Resource {

        Update pendingUpdate() {
            return throughput.updates.stream().filter(u -> !u.applied).findFirst().orElse(null);
        }
    }

    static final class Throughput {
        int perHaPair;
        final List<Update> updates = new ArrayList<>();

        Throughput(int perHaPair) {
            this.perHaPair = perHaPair;
        }
    }

    static final class Update {
        final Instant requestedAt;
        final Instant completesAt;
        final int targetThroughputPerHaPair;
        boolean applied;

        Update(Instant requestedAt, Instant completesAt, int targetThroughputPerHaPair) {
            this.requestedAt = requestedAt;
            this.completesAt = completesAt;
            this.targetThroughputPerHaPair = targetThroughputPerHaPair;
        }
    }

    /** Applies the throughput updates that have finished by {@code now}. */
    void applyFinishedUpdates(Instant now) {
        for (FileSystem fs : store.fileSystems.values()) {
            for (Update update : fs.throughput().updates) {
                if (!update.applied && !now.isBefore(update.completesAt)) {
                    update.applied = true;
                    fs.throughput().perHaPair = update.targetThroughputPerHaPair;
                }
            }
        }
    }

    JsonNode createFileSystem(JsonNode request, AwsApiEmulator.Caller caller) {
        String token = Json.string(request, "ClientRequestToken");
        FsxStore.Idempotent earlier = store.replay("CreateFileSystem", token, request);
        if (earlier != null) {
            FileSystem fs = store.fileSystems.get(earlier.resourceId());
            if (fs != null) {
                return Json.object().set("FileSystem", describe(fs));
            }
        }
        String type = Json.requiredString(request, "FileSystemType", "BadRequest");
        if (!"ONTAP".equals(type)) {
            throw new AwsError("BadRequest", "FileSystemType " + type
                    + " is not emulated: Keel's AWS API emulator supports FSx for NetApp ONTAP only");
        }
        JsonNode ontap = Json.struct(request, "OntapConfiguration");
        if (ontap.isMissingNode()) {
            throw new AwsError("MissingFileSystemConfiguration",
                    "OntapConfiguration is required when FileSystemType is ONTAP");
        }
        String deploymentType = Json.requiredString(ontap, "DeploymentType", "BadRequest");
        if (!DEPLOYMENT_TYPES.contains(deploymentType)) {
            throw new AwsError("BadRequest", "Invalid DeploymentType " + deploymentType
                    + "; valid values are " + String.join(", ", DEPLOYMENT_TYPES.stream().sorted().toList()));
        }
        boolean multiAz = deploymentType.startsWith("MULTI_AZ");

        Network network = network(request, ontap, deploymentType, multiAz);
        List<String> subnetIds = network.subnetIds();
        String preferredSubnet = network.preferredSubnet();
        List<String> routeTables = network.routeTables();

        // HA pairs and throughput
        Integer haPairsIn = Json.integer(ontap, "HAPairs");
        int haPairs = haPairsIn == null ? 1 : haPairsIn;
        if (haPairs < 1 || haPairs > 12) {
            throw new AwsError("BadRequest", "HAPairs must be between 1 and 12");
        }
        if (haPairs > 1 && !"SINGLE_AZ_2".equals(deploymentType)) {
            throw new AwsError("BadRequest", "HAPairs greater than 1 is only supported for SINGLE_AZ_2 file systems");
        }
        int perHaPair = throughputPerHaPair(deploymentType, haPairs,
                Json.integer(ontap, "ThroughputCapacity"), Json.integer(ontap, "ThroughputCapacityPerHAPair"));

        // storage
        Integer storageCapacity = Json.integer(request, "StorageCapacity");
        if (storageCapacity == null) {
            throw new AwsError("BadRequest", "StorageCapacity is required for ONTAP file systems");
        }
        long minStorage = 1024L * haPairs;
        long maxStorage = 524288L * haPairs;
        if (storageCapacity < minStorage || storageCapacity > maxStorage) {
            throw new AwsError("BadRequest", "StorageCapacity must be between " + minStorage + " and "
                    + maxStorage + " GiB for a file system with " + haPairs + " HA pair(s)");
        }
        String storageType = Objects.requireNonNullElse(Json.string(request, "StorageType"), "SSD");
        if (!"SSD".equals(storageType)) {
            throw new AwsError("BadRequest", "StorageType must be SSD for ONTAP file systems");
        }
        String weekly = Json.string(ontap, "WeeklyMaintenanceStartTime");
        if (weekly != null && !WEEKLY_TIME.matcher(weekly).matches()) {
            throw new AwsError("BadRequest", "WeeklyMaintenanceStartTime must look like d:HH:MM");
        }
        String daily = Json.string(ontap, "DailyAutomaticBackupStartTime");
        if (daily != null && !DAILY_TIME.matcher(daily).matches()) {
            throw new AwsError("BadRequest", "DailyAutomaticBackupStartTime must look like HH:MM");
        }
        Integer backupDays = Json.integer(ontap, "AutomaticBackupRetentionDays");
        if (backupDays != null && (backupDays < 0 || backupDays > 90)) {
            throw new AwsError("BadRequest", "AutomaticBackupRetentionDays must be between 0 and 90");
        }
        String password = Json.string(ontap, "FsxAdminPassword");
        if (password != null && (password.length() < 8 || password.length() > 50)) {
            throw new AwsError("BadRequest", "FsxAdminPassword must be 8 to 50 characters");
        }
        Map<String, String> tags = FsxTags.parse(request);

        // create
        Instant now = store.clock.instant();
        String id = "fs-" + FsxRequests.hex(17);
        String arn = "arn:aws:fsx:" + caller.region() + ":" + caller.accountId() + ":file-system/" + id;
        String dns = "." + id + ".fsx." + caller.region() + ".amazonaws.com";

        ObjectNode base = Json.object();
        base.put("OwnerId", caller.accountId());
        base.put("CreationTime", Json.epochSeconds(now));
        base.put("FileSystemId", id);
        base.put("FileSystemType", "ONTAP");
        base.put("StorageCapacity", storageCapacity);
        base.put("StorageType", storageType);
        base.set("SubnetIds", Json.arrayOf(subnetIds, Json.MAPPER.getNodeFactory()::stringNode));
        ArrayNode enis = base.putArray("NetworkInterfaceIds");
        for (int i = 0; i < subnetIds.size() * haPairs; i++) {
            enis.add("eni-" + FsxRequests.hex(17));
        }
        base.put("DNSName", id + ".fsx." + caller.region() + ".amazonaws.com");
        String kmsKeyId = Json.string(request, "KmsKeyId");
        if (kmsKeyId != null) {
            base.put("KmsKeyId", kmsKeyId);
        }
        base.put("ResourceARN", arn);
        base.put("NetworkType", Objects.requireNonNullElse(Json.string(request, "NetworkType"), "IPV4"));
        ObjectNode config = base.putObject("OntapConfiguration");
        config.put("AutomaticBackupRetentionDays", backupDays == null ? 30 : backupDays);
        config.put("DailyAutomaticBackupStartTime", daily == null ? "05:00" : daily);
        config.put("DeploymentType", deploymentType);
        String range = Json.string(ontap, "EndpointIpAddressRange");
        if (multiAz) {
            config.put("EndpointIpAddressRange", range == null ? "198.19.255.0/24" : range);
        }
        config.set("Endpoints", endpoints(dns));
        config.set("DiskIopsConfiguration", iops(ontap, storageCapacity));
        config.put("PreferredSubnetId", preferredSubnet == null ? subnetIds.getFirst() : preferredSubnet);
        if (!routeTables.isEmpty()) {
            config.set("RouteTableIds", Json.arrayOf(routeTables, Json.MAPPER.getNodeFactory()::stringNode));
        }
        config.put("WeeklyMaintenanceStartTime", weekly == null ? "1:05:00" : weekly);
        config.put("HAPairs", haPairs);

        FileSystem fs = new FileSystem(id, arn, now.plus(store.lifecycles.fileSystemCreate()), caller.region(),
                caller.accountId(), deploymentType, haPairs, base, new Throughput(perHaPair), new FsxStore.Changes());
        fs.changes().tags.putAll(tags);
        store.fileSystems.put(id, fs);
        store.remember("CreateFileSystem", token, request, id);
        return Json.object().set("FileSystem", describe(fs));
    }

    /** The file system's intercluster and management endpoints: DNS names in AWS's form, made-up addresses. */
    private static ObjectNode endpoints(String dns) {
        ObjectNode endpoints = Json.object();
        ObjectNode intercluster = endpoints.putObject("Intercluster");
        intercluster.put("DNSName", "intercluster" + dns);
        intercluster.putArray("IpAddresses").add(FsxRequests.ip()).add(FsxRequests.ip());
        ObjectNode management = endpoints.putObject("Management");
        management.put("DNSName", "management" + dns);
        management.putArray("IpAddresses").add(FsxRequests.ip());
        return endpoints;
    }

    /** SSD IOPS as asked, or AWS's automatic 3 per GiB. */
    private static ObjectNode iops(JsonNode ontap, int storageCapacity) {
        JsonNode iops = Json.struct(ontap, "DiskIopsConfiguration");
        ObjectNode out = Json.object();
        String mode = iops.isMissingNode() ? null : Json.string(iops, "Mode");
        out.put("Mode", mode == null ? "AUTOMATIC" : mode);
        Long value = iops.isMissingNode() ? null : Json.longValue(iops, "Iops");
        out.put("Iops", "USER_PROVISIONED".equals(mode) && value != null ? value : 3L * storageCapacity);
        return out;
    }

    /** Where a new file system goes, checked as AWS checks it. */
    private record Network(List<String> subnetIds, String preferredSubnet, List<String> routeTables) {
    }

    private static Network network(JsonNode request, JsonNode ontap, String deploymentType, boolean multiAz) {
        List<String> subnetIds = Json.strings(request, "SubnetIds");
        if (subnetIds.isEmpty()) {
            throw new AwsError("BadRequest", "SubnetIds is required");
        }
        for (String subnet : subnetIds) {
            if (!SUBNET_ID.matcher(subnet).matches()) {
                throw new AwsError("InvalidNetworkSettings", "The subnet ID '" + subnet + "' is invalid")
                        .with("InvalidSubnetId", subnet);
            }
        }
        if (new HashSet<>(subnetIds).size() != subnetIds.size()) {
            throw new AwsError("InvalidNetworkSettings", "SubnetIds must not contain duplicates");
        }
        String preferredSubnet = Json.string(ontap, "PreferredSubnetId");
        if (multiAz) {
            if (subnetIds.size() != 2) {
                throw new AwsError("InvalidNetworkSettings", deploymentType
                        + " file systems need exactly two subnets, one for the preferred and one for the standby file server");
            }
            if (preferredSubnet == null) {
                throw new AwsError("BadRequest", "PreferredSubnetId is required for " + deploymentType + " file systems");
            }
        } else if (subnetIds.size() != 1) {
            throw new AwsError("InvalidNetworkSettings", deploymentType + " file systems need exactly one subnet");
        }
        if (preferredSubnet != null && !subnetIds.contains(preferredSubnet)) {
            throw new AwsError("InvalidNetworkSettings", "PreferredSubnetId " + preferredSubnet
                    + " must be one of the SubnetIds").with("InvalidSubnetId", preferredSubnet);
        }
        List<String> securityGroups = Json.strings(request, "SecurityGroupIds");
        for (String group : securityGroups) {
            if (!SECURITY_GROUP_ID.matcher(group).matches()) {
                throw new AwsError("InvalidNetworkSettings", "The security group ID '" + group + "' is invalid")
                        .with("InvalidSecurityGroupId", group);
            }
        }
        List<String> routeTables = Json.strings(ontap, "RouteTableIds");
        for (String table : routeTables) {
            if (!ROUTE_TABLE_ID.matcher(table).matches()) {
                throw new AwsError("InvalidNetworkSettings", "The route table ID '" + table + "' is invalid")
                        .with("InvalidRouteTableId", table);
            }
        }
        if (!routeTables.isEmpty() && !multiAz) {
            throw new AwsError("BadRequest", "RouteTableIds can be set only for Multi-AZ file systems");
        }
        return new Network(subnetIds, preferredSubnet, routeTables);
    }

    /** Validates throughput the way AWS documents it; answers the throughput per HA pair. */
    private static int throughputPerHaPair(String deploymentType, int haPairs, Integer total, Integer perPair) {
        List<Integer> allowed = THROUGHPUT_PER_HA_PAIR.get(deploymentType);
        if (total == null && perPair == null) {
            throw new AwsError("BadRequest", "Either ThroughputCapacity or ThroughputCapacityPerHAPair is required");
        }
        if (total != null && perPair != null && !total.equals(perPair * haPairs)) {
            throw new AwsError("BadRequest", "ThroughputCapacity (" + total + ") must equal ThroughputCapacityPerHAPair ("
                    + perPair + ") times HAPairs (" + haPairs + ")");
        }
        int value = perPair != null ? perPair : total / haPairs;
        if ((perPair == null && total % haPairs != 0) || !allowed.contains(value)) {
            String what = perPair != null ? "ThroughputCapacityPerHAPair " + perPair
                    : "ThroughputCapacity " + total + (haPairs > 1 ? " / HAPairs " + haPairs : "");
            throw new AwsError("BadRequest", what + " is not valid for " + deploymentType
                    + " file systems; valid values per HA pair (MBps): " + allowed);
        }
        return value;
    }

    JsonNode describeFileSystems(JsonNode request) {
        List<String> ids = Json.strings(request, "FileSystemIds");
        List<FileSystem> selected = new ArrayList<>();
        if (ids.isEmpty()) {
            selected.addAll(store.fileSystems.values());
        } else {
            for (String id : ids) {
                FileSystem fs = store.fileSystems.get(id);
                if (fs == null) {
                    throw FsxRequests.notFound("FileSystemNotFound", "File system", id);
                }
                selected.add(fs);
            }
        }
        return FsxRequests.page(request, selected, "FileSystems", this::describe);
    }

    JsonNode updateFileSystem(JsonNode request) {
        FileSystem fs = fileSystem(Json.requiredString(request, "FileSystemId", "BadRequest"));
        String token = Json.string(request, "ClientRequestToken");
        if (store.replay("UpdateFileSystem", token, request) != null) {
            return Json.object().set("FileSystem", describe(fs)); // a retry of an update that was accepted
        }
        for (String unsupported : List.of("StorageCapacity", "StorageType", "NetworkType", "FileSystemTypeVersion",
                "WindowsConfiguration", "LustreConfiguration", "OpenZFSConfiguration")) {
            if (request.hasNonNull(unsupported)) {
                throw new AwsError("UnsupportedOperation", "Updating " + unsupported
                        + " is not emulated by Keel's AWS API emulator; it emulates ONTAP throughput updates");
            }
        }
        JsonNode ontap = Json.struct(request, "OntapConfiguration");
        if (ontap.isMissingNode()) {
            throw new AwsError("MissingFileSystemConfiguration", "OntapConfiguration is required to update an ONTAP file system");
        }
        for (String unsupported : List.of("HAPairs", "DiskIopsConfiguration", "AddRouteTableIds", "RemoveRouteTableIds",
                "EndpointIpv6AddressRange")) {
            if (ontap.hasNonNull(unsupported)) {
                throw new AwsError("UnsupportedOperation", "Updating OntapConfiguration." + unsupported
                        + " is not emulated by Keel's AWS API emulator");
            }
        }
        Integer total = Json.integer(ontap, "ThroughputCapacity");
        Integer perPair = Json.integer(ontap, "ThroughputCapacityPerHAPair");
        String weekly = Json.string(ontap, "WeeklyMaintenanceStartTime");
        String daily = Json.string(ontap, "DailyAutomaticBackupStartTime");
        Integer backupDays = Json.integer(ontap, "AutomaticBackupRetentionDays");
        if (total == null && perPair == null && weekly == null && daily == null && backupDays == null
                && !ontap.hasNonNull("FsxAdminPassword")) {
            throw new AwsError("BadRequest", "The update request contains no change");
        }
        String lifecycle = lifecycle(fs);
        if (!"AVAILABLE".equals(lifecycle)) {
            throw new AwsError("BadRequest", "Unable to perform the update: file system " + fs.id()
                    + " is in the " + lifecycle + " state, it must be AVAILABLE");
        }
        if (weekly != null && !WEEKLY_TIME.matcher(weekly).matches()) {
            throw new AwsError("BadRequest", "WeeklyMaintenanceStartTime must look like d:HH:MM");
        }
        if (daily != null && !DAILY_TIME.matcher(daily).matches()) {
            throw new AwsError("BadRequest", "DailyAutomaticBackupStartTime must look like HH:MM");
        }
        if (backupDays != null && (backupDays < 0 || backupDays > 90)) {
            throw new AwsError("BadRequest", "AutomaticBackupRetentionDays must be between 0 and 90");
        }
        Integer target = null;
        if (total != null || perPair != null) {
            target = throughputPerHaPair(fs.deploymentType(), fs.haPairs(), total, perPair);
            if (target == fs.throughput().perHaPair) {
                throw new AwsError("BadRequest", "The file system already has a throughput capacity of "
                        + target * fs.haPairs() + " MBps");
            }
        }
        ObjectNode config = (ObjectNode) fs.base().get("OntapConfiguration");
        if (weekly != null) {
            config.put("WeeklyMaintenanceStartTime", weekly);
        }
        if (daily != null) {
            config.put("DailyAutomaticBackupStartTime", daily);
        }
        if (backupDays != null) {
            config.put("AutomaticBackupRetentionDays", backupDays);
        }
        if (target != null) {
            Instant now = store.clock.instant();
            fs.throughput().updates.add(new Update(now, now.plus(store.lifecycles.fileSystemUpdate()), target));
        }
        store.remember("UpdateFileSystem", token, request, fs.id());
        return Json.object().set("FileSystem", describe(fs));
    }

    JsonNode deleteFileSystem(JsonNode request) {
        FileSystem fs = fileSystem(Json.requiredString(request, "FileSystemId", "BadRequest"));
        if (fs.changes().deletingSince == null) {
            List<String> remaining = store.svms.values().stream().filter(s -> s.fileSystemId().equals(fs.id())).map(s -> s.id()).toList();
            if (!remaining.isEmpty()) {
                throw new AwsError("BadRequest", "Cannot delete file system " + fs.id()
                        + " while it has storage virtual machines: delete " + String.join(", ", remaining) + " first");
            }
            fs.changes().deletingSince = store.clock.instant();
        }
        return FsxRequests.deleting("FileSystemId", fs.id());
    }

    FileSystem fileSystem(String id) {
        return store.find(store.fileSystems, id, "FileSystemNotFound", "File system");
    }

    String lifecycle(FileSystem fs) {
        Instant now = store.clock.instant();
        if (fs.changes().deletingSince != null) {
            return "DELETING";
        }
        if (now.isBefore(fs.readyAt())) {
            return "CREATING";
        }
        return fs.pendingUpdate() != null ? "UPDATING" : "AVAILABLE";
    }

    ObjectNode describe(FileSystem fs) {
        ObjectNode out = fs.base().deepCopy();
        out.put("Lifecycle", lifecycle(fs));
        out.set("Tags", FsxTags.list(fs.changes().tags));
        ObjectNode config = (ObjectNode) out.get("OntapConfiguration");
        config.put("ThroughputCapacity", fs.throughput().perHaPair * fs.haPairs());
        config.put("ThroughputCapacityPerHAPair", fs.throughput().perHaPair);
        if (!fs.throughput().updates.isEmpty()) {
            Instant now = store.clock.instant();
            ArrayNode actions = out.putArray("AdministrativeActions");
            for (Update update : fs.throughput().updates) {
                ObjectNode action = actions.addObject();
                action.put("AdministrativeActionType", "FILE_SYSTEM_UPDATE");
                long total = Duration.between(update.requestedAt, update.completesAt).toMillis();
                long done = Duration.between(update.requestedAt, now).toMillis();
                action.put("ProgressPercent", update.applied || total <= 0 ? 100 : (int) Math.min(99, done * 100 / total));
                action.put("RequestTime", Json.epochSeconds(update.requestedAt));
                action.put("Status", update.applied ? "COMPLETED" : "IN_PROGRESS");
                ObjectNode targetValues = action.putObject("TargetFileSystemValues");
                ObjectNode targetConfig = targetValues.putObject("OntapConfiguration");
                targetConfig.put("ThroughputCapacity", update.targetThroughputPerHaPair * fs.haPairs());
                targetConfig.put("ThroughputCapacityPerHAPair", update.targetThroughputPerHaPair);
            }
        }
        return out;
    }
}

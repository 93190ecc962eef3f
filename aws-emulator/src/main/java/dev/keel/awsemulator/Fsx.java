package dev.keel.awsemulator;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * FSx for NetApp ONTAP (file systems, storage virtual machines, volumes, tags), in memory.
 * Lifecycles follow the clock: a file system is CREATING for the create delay, then AVAILABLE;
 * throughput updates, SVM and volume creation and deletions take the update delay.
 */
final class Fsx {

    static final String TARGET_PREFIX = "AWSSimbaAPIService_v20180301";

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
    private static final Pattern ONTAP_NAME = Pattern.compile("[A-Za-z0-9_]+");
    private static final Pattern TAG_TEXT = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");
    private static final Pattern WEEKLY_TIME = Pattern.compile("[1-7]:([01]\\d|2[0-3]):([0-5]\\d)");
    private static final Pattern DAILY_TIME = Pattern.compile("([01]\\d|2[0-3]):([0-5]\\d)");
    private static final int PAGE_LIMIT = 50;

    private final Clock clock;
    private final Duration createDelay;
    private final Duration updateDelay;

    // insertion-ordered, so Describe* pages are stable
    private final Map<String, FileSystem> fileSystems = new LinkedHashMap<>();
    private final Map<String, Svm> svms = new LinkedHashMap<>();
    private final Map<String, Volume> volumes = new LinkedHashMap<>();
    /** ClientRequestToken of a create → what it created, to answer retries like AWS does. */
    private final Map<String, Idempotent> tokens = new HashMap<>();

    Fsx(Clock clock, Duration createDelay, Duration updateDelay) {
        this.clock = clock;
        this.createDelay = createDelay;
        this.updateDelay = updateDelay;
    }

    private record Idempotent(String operation, JsonNode request, String resourceId) {
    }

    /** Something with tags and an ARN. */
    private abstract static class Resource {
        final String id;
        final String arn;
        final Instant createdAt;
        final Instant readyAt;
        final ObjectNode base; // the static part of the description
        final Map<String, String> tags = new LinkedHashMap<>();
        Instant deletingSince;

        Resource(String id, String arn, Instant createdAt, Instant readyAt, ObjectNode base) {
            this.id = id;
            this.arn = arn;
            this.createdAt = createdAt;
            this.readyAt = readyAt;
            this.base = base;
        }
    }

    private static final class FileSystem extends Resource {
        final String region;
        final String accountId;
        final String deploymentType;
        final int haPairs;
        int throughputPerHaPair;
        final List<Update> updates = new ArrayList<>();

        FileSystem(String id, String arn, Instant createdAt, Instant readyAt, String region, String accountId,
                   String deploymentType, int haPairs, int throughputPerHaPair, ObjectNode base) {
            super(id, arn, createdAt, readyAt, base);
            this.region = region;
            this.accountId = accountId;
            this.deploymentType = deploymentType;
            this.haPairs = haPairs;
            this.throughputPerHaPair = throughputPerHaPair;
        }

        Update pendingUpdate() {
            return updates.stream().filter(u -> !u.applied).findFirst().orElse(null);
        }
    }

    private static final class Update {
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

    private static final class Svm extends Resource {
        final String fileSystemId;
        final String name;

        Svm(String id, String arn, Instant createdAt, Instant readyAt, String fileSystemId, String name, ObjectNode base) {
            super(id, arn, createdAt, readyAt, base);
            this.fileSystemId = fileSystemId;
            this.name = name;
        }
    }

    private static final class Volume extends Resource {
        final String fileSystemId;
        final String svmId;
        final String name;
        final String junctionPath;
        final boolean root;

        Volume(String id, String arn, Instant createdAt, Instant readyAt, String fileSystemId, String svmId,
               String name, String junctionPath, boolean root, ObjectNode base) {
            super(id, arn, createdAt, readyAt, base);
            this.fileSystemId = fileSystemId;
            this.svmId = svmId;
            this.name = name;
            this.junctionPath = junctionPath;
            this.root = root;
        }
    }

    // ------------------------------------------------------------------ dispatch

    synchronized JsonNode call(String operation, JsonNode request, AwsApiEmulator.Caller caller) {
        sweep();
        return switch (operation) {
            case "CreateFileSystem" -> createFileSystem(request, caller);
            case "DescribeFileSystems" -> describeFileSystems(request);
            case "UpdateFileSystem" -> updateFileSystem(request);
            case "DeleteFileSystem" -> deleteFileSystem(request);
            case "CreateStorageVirtualMachine" -> createSvm(request);
            case "DescribeStorageVirtualMachines" -> describeSvms(request);
            case "DeleteStorageVirtualMachine" -> deleteSvm(request);
            case "CreateVolume" -> createVolume(request);
            case "DescribeVolumes" -> describeVolumes(request);
            case "DeleteVolume" -> deleteVolume(request);
            case "TagResource" -> tagResource(request);
            case "UntagResource" -> untagResource(request);
            case "ListTagsForResource" -> listTags(request);
            default -> throw new AwsError("UnknownOperationException",
                    "FSx operation " + operation + " is not emulated by Keel's AWS API emulator"
                            + " (it emulates ONTAP file systems, SVMs, volumes and tags)");
        };
    }

    synchronized void reset() {
        fileSystems.clear();
        svms.clear();
        volumes.clear();
        tokens.clear();
    }

    /** Everything, described, for the admin API. */
    synchronized JsonNode dump() {
        sweep();
        ObjectNode out = Json.object();
        out.set("FileSystems", Json.arrayOf(List.copyOf(fileSystems.values()), this::describe));
        out.set("StorageVirtualMachines", Json.arrayOf(List.copyOf(svms.values()), this::describe));
        out.set("Volumes", Json.arrayOf(List.copyOf(volumes.values()), this::describe));
        return out;
    }

    /** Applies finished updates and forgets what finished deleting. */
    private void sweep() {
        Instant now = clock.instant();
        for (FileSystem fs : fileSystems.values()) {
            for (Update update : fs.updates) {
                if (!update.applied && !now.isBefore(update.completesAt)) {
                    update.applied = true;
                    fs.throughputPerHaPair = update.targetThroughputPerHaPair;
                }
            }
        }
        Predicate<Resource> gone = r -> r.deletingSince != null && !now.isBefore(r.deletingSince.plus(updateDelay));
        volumes.values().removeIf(gone);
        svms.values().removeIf(gone);
        fileSystems.values().removeIf(gone);
    }

    // ------------------------------------------------------------------ file systems

    private JsonNode createFileSystem(JsonNode request, AwsApiEmulator.Caller caller) {
        String token = Json.string(request, "ClientRequestToken");
        Idempotent earlier = replay("CreateFileSystem", token, request);
        if (earlier != null) {
            FileSystem fs = fileSystems.get(earlier.resourceId());
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

        // network
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
        Map<String, String> tags = tags(request);

        // create
        Instant now = clock.instant();
        String id = "fs-" + hex(17);
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
            enis.add("eni-" + hex(17));
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
        ObjectNode endpoints = config.putObject("Endpoints");
        ObjectNode intercluster = endpoints.putObject("Intercluster");
        intercluster.put("DNSName", "intercluster" + dns);
        intercluster.putArray("IpAddresses").add(ip()).add(ip());
        ObjectNode management = endpoints.putObject("Management");
        management.put("DNSName", "management" + dns);
        management.putArray("IpAddresses").add(ip());
        JsonNode iops = Json.struct(ontap, "DiskIopsConfiguration");
        ObjectNode iopsOut = config.putObject("DiskIopsConfiguration");
        String iopsMode = iops.isMissingNode() ? null : Json.string(iops, "Mode");
        iopsOut.put("Mode", iopsMode == null ? "AUTOMATIC" : iopsMode);
        Long iopsValue = iops.isMissingNode() ? null : Json.longValue(iops, "Iops");
        iopsOut.put("Iops", "USER_PROVISIONED".equals(iopsMode) && iopsValue != null ? iopsValue : 3L * storageCapacity);
        config.put("PreferredSubnetId", preferredSubnet == null ? subnetIds.getFirst() : preferredSubnet);
        if (!routeTables.isEmpty()) {
            config.set("RouteTableIds", Json.arrayOf(routeTables, Json.MAPPER.getNodeFactory()::stringNode));
        }
        config.put("WeeklyMaintenanceStartTime", weekly == null ? "1:05:00" : weekly);
        config.put("HAPairs", haPairs);

        FileSystem fs = new FileSystem(id, arn, now, now.plus(createDelay), caller.region(), caller.accountId(),
                deploymentType, haPairs, perHaPair, base);
        fs.tags.putAll(tags);
        fileSystems.put(id, fs);
        remember("CreateFileSystem", token, request, id);
        return Json.object().set("FileSystem", describe(fs));
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

    private JsonNode describeFileSystems(JsonNode request) {
        List<String> ids = Json.strings(request, "FileSystemIds");
        List<FileSystem> selected = new ArrayList<>();
        if (ids.isEmpty()) {
            selected.addAll(fileSystems.values());
        } else {
            for (String id : ids) {
                FileSystem fs = fileSystems.get(id);
                if (fs == null) {
                    throw notFound("FileSystemNotFound", "File system", id);
                }
                selected.add(fs);
            }
        }
        return page(request, selected, "FileSystems", this::describe);
    }

    private JsonNode updateFileSystem(JsonNode request) {
        FileSystem fs = fileSystem(Json.requiredString(request, "FileSystemId", "BadRequest"));
        String token = Json.string(request, "ClientRequestToken");
        if (replay("UpdateFileSystem", token, request) != null) {
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
            throw new AwsError("BadRequest", "Unable to perform the update: file system " + fs.id
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
            target = throughputPerHaPair(fs.deploymentType, fs.haPairs, total, perPair);
            if (target == fs.throughputPerHaPair) {
                throw new AwsError("BadRequest", "The file system already has a throughput capacity of "
                        + target * fs.haPairs + " MBps");
            }
        }
        ObjectNode config = (ObjectNode) fs.base.get("OntapConfiguration");
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
            Instant now = clock.instant();
            fs.updates.add(new Update(now, now.plus(updateDelay), target));
        }
        remember("UpdateFileSystem", token, request, fs.id);
        return Json.object().set("FileSystem", describe(fs));
    }

    private JsonNode deleteFileSystem(JsonNode request) {
        FileSystem fs = fileSystem(Json.requiredString(request, "FileSystemId", "BadRequest"));
        if (fs.deletingSince == null) {
            List<String> remaining = svms.values().stream().filter(s -> s.fileSystemId.equals(fs.id)).map(s -> s.id).toList();
            if (!remaining.isEmpty()) {
                throw new AwsError("BadRequest", "Cannot delete file system " + fs.id
                        + " while it has storage virtual machines: delete " + String.join(", ", remaining) + " first");
            }
            fs.deletingSince = clock.instant();
        }
        ObjectNode out = Json.object();
        out.put("FileSystemId", fs.id);
        out.put("Lifecycle", "DELETING");
        return out;
    }

    private FileSystem fileSystem(String id) {
        return find(fileSystems, id, "FileSystemNotFound", "File system");
    }

    private <T extends Resource> T find(Map<String, T> resources, String id, String errorCode, String noun) {
        T resource = resources.get(id);
        if (resource == null) {
            throw notFound(errorCode, noun, id);
        }
        return resource;
    }

    private String lifecycle(FileSystem fs) {
        Instant now = clock.instant();
        if (fs.deletingSince != null) {
            return "DELETING";
        }
        if (now.isBefore(fs.readyAt)) {
            return "CREATING";
        }
        return fs.pendingUpdate() != null ? "UPDATING" : "AVAILABLE";
    }

    private ObjectNode describe(FileSystem fs) {
        ObjectNode out = fs.base.deepCopy();
        out.put("Lifecycle", lifecycle(fs));
        out.set("Tags", tagList(fs.tags));
        ObjectNode config = (ObjectNode) out.get("OntapConfiguration");
        config.put("ThroughputCapacity", fs.throughputPerHaPair * fs.haPairs);
        config.put("ThroughputCapacityPerHAPair", fs.throughputPerHaPair);
        if (!fs.updates.isEmpty()) {
            Instant now = clock.instant();
            ArrayNode actions = out.putArray("AdministrativeActions");
            for (Update update : fs.updates) {
                ObjectNode action = actions.addObject();
                action.put("AdministrativeActionType", "FILE_SYSTEM_UPDATE");
                long total = Duration.between(update.requestedAt, update.completesAt).toMillis();
                long done = Duration.between(update.requestedAt, now).toMillis();
                action.put("ProgressPercent", update.applied || total <= 0 ? 100 : (int) Math.min(99, done * 100 / total));
                action.put("RequestTime", Json.epochSeconds(update.requestedAt));
                action.put("Status", update.applied ? "COMPLETED" : "IN_PROGRESS");
                ObjectNode targetValues = action.putObject("TargetFileSystemValues");
                ObjectNode targetConfig = targetValues.putObject("OntapConfiguration");
                targetConfig.put("ThroughputCapacity", update.targetThroughputPerHaPair * fs.haPairs);
                targetConfig.put("ThroughputCapacityPerHAPair", update.targetThroughputPerHaPair);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ storage virtual machines

    private JsonNode createSvm(JsonNode request) {
        String token = Json.string(request, "ClientRequestToken");
        Idempotent earlier = replay("CreateStorageVirtualMachine", token, request);
        if (earlier != null && svms.containsKey(earlier.resourceId())) {
            return Json.object().set("StorageVirtualMachine", describe(svms.get(earlier.resourceId())));
        }
        FileSystem fs = fileSystem(Json.requiredString(request, "FileSystemId", "BadRequest"));
        String name = Json.requiredString(request, "Name", "BadRequest");
        if (name.length() > 47 || !ONTAP_NAME.matcher(name).matches()) {
            throw new AwsError("BadRequest", "Invalid SVM name '" + name
                    + "': up to 47 letters, digits and underscores");
        }
        String lifecycle = lifecycle(fs);
        if (!"AVAILABLE".equals(lifecycle) && !"UPDATING".equals(lifecycle)) {
            throw new AwsError("BadRequest", "Cannot create a storage virtual machine on file system " + fs.id
                    + " in the " + lifecycle + " state");
        }
        if (svms.values().stream().anyMatch(s -> s.fileSystemId.equals(fs.id) && s.name.equals(name))) {
            throw new AwsError("BadRequest", "A storage virtual machine named " + name + " already exists on " + fs.id);
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
        Map<String, String> tags = tags(request);

        Instant now = clock.instant();
        String id = "svm-" + hex(17);
        String arn = "arn:aws:fsx:" + fs.region + ":" + fs.accountId + ":storage-virtual-machine/" + fs.id + "/" + id;
        String dns = id + "." + fs.id + ".fsx." + fs.region + ".amazonaws.com";
        ObjectNode base = Json.object();
        base.put("CreationTime", Json.epochSeconds(now));
        ObjectNode endpoints = base.putObject("Endpoints");
        ObjectNode iscsi = endpoints.putObject("Iscsi");
        iscsi.put("DNSName", "iscsi." + dns);
        iscsi.putArray("IpAddresses").add(ip()).add(ip());
        ObjectNode management = endpoints.putObject("Management");
        management.put("DNSName", dns);
        management.putArray("IpAddresses").add(ip());
        ObjectNode nfs = endpoints.putObject("Nfs");
        nfs.put("DNSName", dns);
        nfs.set("IpAddresses", management.get("IpAddresses").deepCopy());
        base.put("FileSystemId", fs.id);
        base.put("Name", name);
        base.put("ResourceARN", arn);
        base.put("StorageVirtualMachineId", id);
        base.put("Subtype", "DEFAULT");
        base.put("UUID", UUID.randomUUID().toString());
        base.put("RootVolumeSecurityStyle", style);
        Svm svm = new Svm(id, arn, now, now.plus(updateDelay), fs.id, name, base);
        svm.tags.putAll(tags);
        svms.put(id, svm);

        // ONTAP gives every SVM a root volume; AWS lists it and refuses to delete it on its own.
        String rootId = "fsvol-" + hex(17);
        ObjectNode rootConfig = volumeConfig(svm.id, "/", 1024, style, false);
        rootConfig.put("StorageVirtualMachineRoot", true);
        ObjectNode rootBase = volumeBase(fs, rootId, name + "_root", now, rootConfig);
        volumes.put(rootId, new Volume(rootId, rootBase.get("ResourceARN").stringValue(), now, now.plus(updateDelay),
                fs.id, svm.id, name + "_root", "/", true, rootBase));

        remember("CreateStorageVirtualMachine", token, request, id);
        return Json.object().set("StorageVirtualMachine", describe(svm));
    }

    private JsonNode describeSvms(JsonNode request) {
        List<String> ids = Json.strings(request, "StorageVirtualMachineIds");
        Map<String, List<String>> filters = filters(request, Set.of("file-system-id"));
        List<Svm> selected = new ArrayList<>();
        for (Svm svm : ids.isEmpty() ? List.copyOf(svms.values()) : ids.stream().map(this::svm).toList()) {
            if (matches(filters, "file-system-id", svm.fileSystemId)) {
                selected.add(svm);
            }
        }
        return page(request, selected, "StorageVirtualMachines", this::describe);
    }

    private JsonNode deleteSvm(JsonNode request) {
        Svm svm = svm(Json.requiredString(request, "StorageVirtualMachineId", "BadRequest"));
        if (svm.deletingSince == null) {
            List<String> remaining = volumes.values().stream()
                    .filter(v -> v.svmId.equals(svm.id) && !v.root).map(v -> v.id).toList();
            if (!remaining.isEmpty()) {
                throw new AwsError("BadRequest", "Cannot delete storage virtual machine " + svm.id
                        + " while it has volumes: delete " + String.join(", ", remaining) + " first");
            }
            Instant now = clock.instant();
            svm.deletingSince = now;
            volumes.values().stream().filter(v -> v.svmId.equals(svm.id) && v.deletingSince == null)
                    .forEach(v -> v.deletingSince = now);
        }
        ObjectNode out = Json.object();
        out.put("StorageVirtualMachineId", svm.id);
        out.put("Lifecycle", "DELETING");
        return out;
    }

    private Svm svm(String id) {
        return find(svms, id, "StorageVirtualMachineNotFound", "Storage virtual machine");
    }

    /** SVMs and volumes: their static description, lifecycle and tags. */
    private ObjectNode describe(Resource child) {
        ObjectNode out = child.base.deepCopy();
        out.put("Lifecycle", childLifecycle(child));
        out.set("Tags", tagList(child.tags));
        return out;
    }

    private String childLifecycle(Resource resource) {
        if (resource.deletingSince != null) {
            return "DELETING";
        }
        return clock.instant().isBefore(resource.readyAt) ? "CREATING" : "CREATED";
    }

    // ------------------------------------------------------------------ volumes

    private JsonNode createVolume(JsonNode request) {
        String token = Json.string(request, "ClientRequestToken");
        Idempotent earlier = replay("CreateVolume", token, request);
        if (earlier != null && volumes.containsKey(earlier.resourceId())) {
            return Json.object().set("Volume", describe(volumes.get(earlier.resourceId())));
        }
        String type = Json.requiredString(request, "VolumeType", "BadRequest");
        if (!"ONTAP".equals(type)) {
            throw new AwsError("BadRequest", "VolumeType " + type
                    + " is not emulated: Keel's AWS API emulator supports ONTAP volumes only");
        }
        String name = Json.requiredString(request, "Name", "BadRequest");
        if (name.length() > 203 || !ONTAP_NAME.matcher(name).matches()) {
            throw new AwsError("BadRequest", "Invalid volume name '" + name
                    + "': up to 203 letters, digits and underscores");
        }
        JsonNode ontap = Json.struct(request, "OntapConfiguration");
        if (ontap.isMissingNode()) {
            throw new AwsError("MissingVolumeConfiguration", "OntapConfiguration is required for ONTAP volumes");
        }
        Svm svm = svm(Json.requiredString(ontap, "StorageVirtualMachineId", "BadRequest"));
        String svmLifecycle = childLifecycle(svm);
        if (!"CREATED".equals(svmLifecycle)) {
            throw new AwsError("BadRequest", "Cannot create a volume on storage virtual machine " + svm.id
                    + " in the " + svmLifecycle + " state");
        }
        FileSystem fs = fileSystem(svm.fileSystemId);
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
        for (Volume other : volumes.values()) {
            if (other.svmId.equals(svm.id) && other.name.equals(name)) {
                throw new AwsError("BadRequest", "A volume named " + name + " already exists on " + svm.id);
            }
            if (junctionPath != null && other.svmId.equals(svm.id) && junctionPath.equals(other.junctionPath)) {
                throw new AwsError("BadRequest", "Junction path " + junctionPath + " is already used by " + other.id);
            }
        }
        String style = Objects.requireNonNullElse(Json.string(ontap, "SecurityStyle"),
                svm.base.get("RootVolumeSecurityStyle").stringValue());
        Boolean efficiency = Json.bool(ontap, "StorageEfficiencyEnabled");
        Map<String, String> tags = tags(request);

        Instant now = clock.instant();
        String id = "fsvol-" + hex(17);
        ObjectNode config = volumeConfig(svm.id, junctionPath, megabytes, style, efficiency != null && efficiency);
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
        Volume volume = new Volume(id, base.get("ResourceARN").stringValue(), now, now.plus(updateDelay),
                fs.id, svm.id, name, junctionPath, false, base);
        volume.tags.putAll(tags);
        volumes.put(id, volume);
        remember("CreateVolume", token, request, id);
        return Json.object().set("Volume", describe(volume));
    }

    private static ObjectNode volumeConfig(String svmId, String junctionPath, long megabytes, String style, boolean efficiency) {
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

    private static ObjectNode volumeBase(FileSystem fs, String id, String name, Instant now, ObjectNode config) {
        ObjectNode base = Json.object();
        base.put("CreationTime", Json.epochSeconds(now));
        base.put("FileSystemId", fs.id);
        base.put("Name", name);
        base.set("OntapConfiguration", config);
        base.put("ResourceARN", "arn:aws:fsx:" + fs.region + ":" + fs.accountId + ":volume/" + fs.id + "/" + id);
        base.put("VolumeId", id);
        base.put("VolumeType", "ONTAP");
        return base;
    }

    private JsonNode describeVolumes(JsonNode request) {
        List<String> ids = Json.strings(request, "VolumeIds");
        Map<String, List<String>> filters = filters(request, Set.of("file-system-id", "storage-virtual-machine-id"));
        List<Volume> selected = new ArrayList<>();
        for (Volume volume : ids.isEmpty() ? List.copyOf(volumes.values()) : ids.stream().map(this::volume).toList()) {
            if (matches(filters, "file-system-id", volume.fileSystemId)
                    && matches(filters, "storage-virtual-machine-id", volume.svmId)) {
                selected.add(volume);
            }
        }
        return page(request, selected, "Volumes", this::describe);
    }

    private JsonNode deleteVolume(JsonNode request) {
        Volume volume = volume(Json.requiredString(request, "VolumeId", "BadRequest"));
        if (volume.root) {
            throw new AwsError("BadRequest", "Volume " + volume.id
                    + " is the root volume of its storage virtual machine; it is deleted with the SVM");
        }
        if (volume.deletingSince == null) {
            volume.deletingSince = clock.instant();
        }
        ObjectNode out = Json.object();
        out.put("VolumeId", volume.id);
        out.put("Lifecycle", "DELETING");
        return out;
    }

    private Volume volume(String id) {
        return find(volumes, id, "VolumeNotFound", "Volume");
    }

    // ------------------------------------------------------------------ tags

    private JsonNode tagResource(JsonNode request) {
        Resource resource = byArn(Json.requiredString(request, "ResourceARN", "BadRequest"));
        Map<String, String> tags = tags(request);
        if (tags.isEmpty()) {
            throw new AwsError("BadRequest", "Tags must contain at least one tag");
        }
        Map<String, String> merged = new LinkedHashMap<>(resource.tags);
        merged.putAll(tags);
        if (merged.size() > 50) {
            throw new AwsError("BadRequest", "A resource can have at most 50 tags");
        }
        resource.tags.putAll(tags);
        return Json.object();
    }

    private JsonNode untagResource(JsonNode request) {
        Resource resource = byArn(Json.requiredString(request, "ResourceARN", "BadRequest"));
        List<String> keys = Json.strings(request, "TagKeys");
        if (keys.isEmpty()) {
            throw new AwsError("BadRequest", "TagKeys must contain at least one key");
        }
        keys.forEach(resource.tags::remove);
        return Json.object();
    }

    private JsonNode listTags(JsonNode request) {
        Resource resource = byArn(Json.requiredString(request, "ResourceARN", "BadRequest"));
        List<Map.Entry<String, String>> entries = List.copyOf(resource.tags.entrySet());
        ObjectNode out = (ObjectNode) page(request, entries, "Tags", e -> tag(e.getKey(), e.getValue()));
        if (entries.isEmpty()) {
            out.remove("Tags"); // the model's Tags list has min 1: AWS leaves it out
        }
        return out;
    }

    private Resource byArn(String arn) {
        for (Map<String, ? extends Resource> map : List.of(fileSystems, svms, volumes)) {
            for (Resource resource : map.values()) {
                if (resource.arn.equals(arn)) {
                    return resource;
                }
            }
        }
        if (!arn.startsWith("arn:aws:fsx:")) {
            throw new AwsError("NotServiceResourceError", "Resource " + arn + " is not an Amazon FSx resource")
                    .with("ResourceARN", arn);
        }
        throw new AwsError("ResourceNotFound", "Resource " + arn + " does not exist").with("ResourceARN", arn);
    }

    private static Map<String, String> tags(JsonNode request) {
        List<JsonNode> list = Json.list(request, "Tags");
        if (list.size() > 50) {
            throw new AwsError("BadRequest", "At most 50 tags are allowed");
        }
        Map<String, String> tags = new LinkedHashMap<>();
        for (JsonNode tag : list) {
            String key = Json.string(tag, "Key");
            String value = Json.string(tag, "Value");
            if (key == null || key.isEmpty() || key.length() > 128 || !TAG_TEXT.matcher(key).matches()) {
                throw new AwsError("BadRequest", "Invalid tag key '" + key + "'");
            }
            if (value == null || value.length() > 256 || !TAG_TEXT.matcher(value).matches()) {
                throw new AwsError("BadRequest", "Invalid value for tag '" + key + "'");
            }
            if (key.startsWith("aws:")) {
                throw new AwsError("BadRequest", "Tag keys starting with aws: are reserved");
            }
            tags.put(key, value);
        }
        return tags;
    }

    private static ArrayNode tagList(Map<String, String> tags) {
        ArrayNode list = Json.array();
        tags.forEach((k, v) -> list.add(tag(k, v)));
        return list;
    }

    private static ObjectNode tag(String key, String value) {
        ObjectNode tag = Json.object();
        tag.put("Key", key);
        tag.put("Value", value);
        return tag;
    }

    // ------------------------------------------------------------------ shared

    /** Same token and same parameters: the earlier result; same token, other parameters: an error, as in AWS. */
    private Idempotent replay(String operation, String token, JsonNode request) {
        if (token == null) {
            return null;
        }
        Idempotent earlier = tokens.get(operation + "/" + token);
        if (earlier != null && !earlier.request().equals(withoutToken(request))) {
            throw new AwsError("IncompatibleParameterError", "The ClientRequestToken " + token
                    + " was already used for a " + operation + " request with different parameters")
                    .with("Parameter", "ClientRequestToken");
        }
        return earlier;
    }

    private void remember(String operation, String token, JsonNode request, String resourceId) {
        if (token != null) {
            tokens.put(operation + "/" + token, new Idempotent(operation, withoutToken(request), resourceId));
        }
    }

    private static JsonNode withoutToken(JsonNode request) {
        ObjectNode copy = (ObjectNode) request.deepCopy();
        copy.remove("ClientRequestToken");
        return copy;
    }

    private static Map<String, List<String>> filters(JsonNode request, Set<String> known) {
        Map<String, List<String>> filters = new HashMap<>();
        for (JsonNode filter : Json.list(request, "Filters")) {
            String name = Json.string(filter, "Name");
            if (name == null || !known.contains(name)) {
                throw new AwsError("BadRequest", "Invalid filter name " + name + "; valid names: " + known);
            }
            filters.computeIfAbsent(name, k -> new ArrayList<>()).addAll(Json.strings(filter, "Values"));
        }
        return filters;
    }

    private static boolean matches(Map<String, List<String>> filters, String name, String value) {
        List<String> values = filters.get(name);
        return values == null || values.contains(value);
    }

    /** AWS-style pagination: at most MaxResults (and the service's own page limit), NextToken opaque. */
    private static <T> JsonNode page(JsonNode request, List<T> items, String member,
                                     java.util.function.Function<T, JsonNode> render) {
        Integer maxResults = Json.integer(request, "MaxResults");
        if (maxResults != null && maxResults < 1) {
            throw new AwsError("BadRequest", "MaxResults must be greater than 0");
        }
        int size = Math.min(maxResults == null ? PAGE_LIMIT : maxResults, PAGE_LIMIT);
        int start = 0;
        String nextToken = Json.string(request, "NextToken");
        if (nextToken != null) {
            try {
                String decoded = new String(Base64.getDecoder().decode(nextToken), StandardCharsets.UTF_8);
                if (!decoded.startsWith(member + ":")) {
                    throw new IllegalArgumentException();
                }
                start = Integer.parseInt(decoded.substring(member.length() + 1));
            } catch (IllegalArgumentException e) {
                throw new AwsError("BadRequest", "Invalid NextToken");
            }
        }
        int end = Math.min(items.size(), start + size);
        ObjectNode out = Json.object();
        out.set(member, Json.arrayOf(items.subList(Math.min(start, items.size()), end), render));
        if (end < items.size()) {
            out.put("NextToken", Base64.getEncoder().encodeToString((member + ":" + end).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static AwsError notFound(String code, String what, String id) {
        return new AwsError(code, what + " " + id + " does not exist");
    }

    private static String hex(int length) {
        StringBuilder out = new StringBuilder(length);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < length; i++) {
            out.append(Character.forDigit(random.nextInt(16), 16));
        }
        return out.toString();
    }

    /** A made-up address in 198.19.0.0/16, the range FSx uses by default for Multi-AZ endpoints. */
    private static String ip() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "198.19." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }
}

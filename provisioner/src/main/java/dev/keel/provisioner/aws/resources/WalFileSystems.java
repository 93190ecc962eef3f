package dev.keel.provisioner.aws.resources;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.FileSystem;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.fsx.model.StorageVirtualMachineNotFoundException;
import software.amazon.awssdk.services.fsx.model.VolumeNotFoundException;

/**
 * The FSx for ONTAP WAL file systems: per file system one storage virtual machine and one volume, in the brokers'
 * security group. File systems are created together and awaited together, then their SVMs, then their volumes.
 * Coded against the real SDK; LocalStack has no FSx, so locally it runs against the project's own emulator.
 */
public final class WalFileSystems implements ManagedResource {

    static final int WAL_VOLUME_MB = 100 * 1024;
    private static final List<String> DEPENDANTS_FIRST = List.of(ObservedState.FSX_VOLUME, ObservedState.FSX_SVM,
            ObservedState.FSX_FILE_SYSTEM);
    private static final String AVAILABLE = "AVAILABLE";
    private static final Set<String> VOLUME_READY = Set.of("CREATED", "AVAILABLE");

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        UUID instanceId = desired.instanceId();
        List<ObservedState.Resource> found = new ArrayList<>(fileSystems(aws.fsx(), instanceId));
        List<String> ids = found.stream().map(ObservedState.Resource::id).toList();
        if (!ids.isEmpty()) {
            found.addAll(svms(aws.fsx(), ids));
            found.addAll(volumes(aws.fsx(), ids));
        }
        return found;
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        List<ResourceChange> changes = new ArrayList<>();
        for (DesiredState.WalFileSystem fs : desired.fileSystems()) {
            var seen = observed.find(ObservedState.FSX_FILE_SYSTEM, fs.logicalName());
            if (seen.isEmpty()) {
                changes.add(new ResourceChange(Action.CREATE, ObservedState.FSX_FILE_SYSTEM, fs.logicalName(), null,
                        fs.deploymentType() + " ONTAP, " + fs.throughputMBps() + " MBps"));
            } else if (!String.valueOf(fs.throughputMBps()).equals(seen.get().attribute("throughputMBps"))) {
                changes.add(new ResourceChange(Action.UPDATE, ObservedState.FSX_FILE_SYSTEM, fs.logicalName(),
                        seen.get().id(), "throughput " + seen.get().attribute("throughputMBps") + " -> "
                        + fs.throughputMBps() + " MBps"));
            }
            if (observed.find(ObservedState.FSX_SVM, fs.svmLogicalName()).isEmpty()) {
                changes.add(new ResourceChange(Action.CREATE, ObservedState.FSX_SVM, fs.svmLogicalName(), null,
                        "storage virtual machine " + fs.svmName()));
            }
            if (observed.find(ObservedState.FSX_VOLUME, fs.volumeLogicalName()).isEmpty()) {
                changes.add(new ResourceChange(Action.CREATE, ObservedState.FSX_VOLUME, fs.volumeLogicalName(), null,
                        "ONTAP volume " + fs.volumeName()));
            }
        }
        Set<String> wanted = desired.fileSystems().stream()
                .flatMap(f -> Stream.of(f.logicalName(), f.svmLogicalName(), f.volumeLogicalName()))
                .collect(Collectors.toSet());
        for (String type : DEPENDANTS_FIRST) {
            changes.addAll(Surplus.of(observed, type, wanted,
                    Comparator.comparing(ObservedState.Resource::logicalName).reversed(), "surplus WAL file system"));
        }
        return changes;
    }

    /** Creates and resizes what {@code changes} say, then waits for every desired file system, SVM and volume. */
    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        FSxClient fsx = ctx.aws().fsx();
        List<DesiredState.WalFileSystem> wanted = ctx.desired().fileSystems();
        for (DesiredState.WalFileSystem want : wanted) {
            if (has(changes, Action.CREATE, want.logicalName())) {
                String groupId = ctx.observed().idOf(ObservedState.SECURITY_GROUP,
                        ctx.desired().securityGroup().logicalName()).orElseThrow(() -> new ProvisioningException(
                        "NO_SECURITY_GROUP", "The security group must exist before the WAL file systems; "
                        + "run create-security-group first.", true));
                AwsCalls.run("fsx:CreateFileSystem", () -> fsx.createFileSystem(b -> b
                        .clientRequestToken(token(want.clientToken(), groupId, want.throughputMBps(), want.subnetIds()))
                        .fileSystemType("ONTAP")
                        .storageCapacity(want.storageGiB()).storageType("SSD").subnetIds(want.subnetIds())
                        .securityGroupIds(groupId).tags(Tags.fsx(ctx.desired().tags(want.logicalName())))
                        .ontapConfiguration(o -> o.deploymentType(want.deploymentType())
                                .throughputCapacity(want.throughputMBps())
                                .preferredSubnetId(want.preferredSubnetId()))));
            }
        }
        awaitFileSystems(ctx, wanted, fs -> AVAILABLE.equals(fs.attribute("lifecycle")));
        for (DesiredState.WalFileSystem want : wanted) {
            ObservedState.Resource fs = find(ctx, ObservedState.FSX_FILE_SYSTEM, want.logicalName());
            if (has(changes, Action.UPDATE, want.logicalName())
                    && !String.valueOf(want.throughputMBps()).equals(fs.attribute("throughputMBps"))) {
                AwsCalls.run("fsx:UpdateFileSystem", () -> fsx.updateFileSystem(b -> b.fileSystemId(fs.id())
                        .clientRequestToken(want.clientToken() + "-t" + want.throughputMBps())
                        .ontapConfiguration(o -> o.throughputCapacity(want.throughputMBps()))));
            }
        }
        awaitFileSystems(ctx, wanted, fs -> AVAILABLE.equals(fs.attribute("lifecycle"))
                && wanted.stream().anyMatch(w -> w.logicalName().equals(fs.logicalName())
                && String.valueOf(w.throughputMBps()).equals(fs.attribute("throughputMBps"))));

        for (DesiredState.WalFileSystem want : wanted) {
            if (has(changes, Action.CREATE, want.svmLogicalName())) {
                String fileSystemId = find(ctx, ObservedState.FSX_FILE_SYSTEM, want.logicalName()).id();
                AwsCalls.run("fsx:CreateStorageVirtualMachine", () -> fsx.createStorageVirtualMachine(b -> b
                        .fileSystemId(fileSystemId).name(want.svmName()).rootVolumeSecurityStyle("UNIX")
                        .clientRequestToken(token(want.clientToken() + "-svm", fileSystemId))
                        .tags(Tags.fsx(ctx.desired().tags(want.svmLogicalName())))));
            }
        }
        await(ctx, ObservedState.FSX_SVM, wanted.stream().map(DesiredState.WalFileSystem::svmLogicalName).toList(),
                svm -> "CREATED".equals(svm.attribute("lifecycle")));

        for (DesiredState.WalFileSystem want : wanted) {
            if (has(changes, Action.CREATE, want.volumeLogicalName())) {
                String svmId = find(ctx, ObservedState.FSX_SVM, want.svmLogicalName()).id();
                AwsCalls.run("fsx:CreateVolume", () -> fsx.createVolume(b -> b.volumeType("ONTAP")
                        .name(want.volumeName()).clientRequestToken(token(want.clientToken() + "-vol", svmId))
                        .tags(Tags.fsx(ctx.desired().tags(want.volumeLogicalName())))
                        .ontapConfiguration(o -> o.storageVirtualMachineId(svmId).junctionPath("/wal")
                                .sizeInMegabytes(WAL_VOLUME_MB).securityStyle("UNIX")
                                .storageEfficiencyEnabled(false))));
            }
        }
        await(ctx, ObservedState.FSX_VOLUME, wanted.stream().map(DesiredState.WalFileSystem::volumeLogicalName)
                .toList(), volume -> VOLUME_READY.contains(volume.attribute("lifecycle")));
    }

    /** Volumes first, then SVMs, then file systems, each kind awaited gone before the next. */
    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        FSxClient fsx = ctx.aws().fsx();
        for (String type : DEPENDANTS_FIRST) {
            List<ResourceChange> ofType = deletes.stream().filter(c -> c.type().equals(type)).toList();
            if (ofType.isEmpty()) {
                continue;
            }
            for (ResourceChange change : ofType) {
                boolean deleting = ctx.observed().find(type, change.logicalName())
                        .map(r -> "DELETING".equals(r.attribute("lifecycle"))).orElse(false);
                if (!deleting) {
                    deleteOne(fsx, type, change.id());
                }
            }
            Set<String> ids = ofType.stream().map(ResourceChange::id).collect(Collectors.toSet());
            ctx.await(type, type + " " + ids + " to be deleted", null, () -> {
                refreshAll(ctx);
                return ctx.observed().ofType(type).stream().noneMatch(r -> ids.contains(r.id()));
            });
        }
    }

    private static void deleteOne(FSxClient fsx, String type, String id) {
        try {
            switch (type) {
                case ObservedState.FSX_VOLUME -> fsx.deleteVolume(b -> b.volumeId(id)
                        .ontapConfiguration(o -> o.skipFinalBackup(true)));
                case ObservedState.FSX_SVM -> fsx.deleteStorageVirtualMachine(b -> b.storageVirtualMachineId(id));
                default -> fsx.deleteFileSystem(b -> b.fileSystemId(id).clientRequestToken("keel-delete-" + id));
            }
        } catch (VolumeNotFoundException | StorageVirtualMachineNotFoundException | FileSystemNotFoundException e) {
            // already gone
        } catch (SdkException e) {
            throw AwsCalls.classify(switch (type) {
                case ObservedState.FSX_VOLUME -> "fsx:DeleteVolume";
                case ObservedState.FSX_SVM -> "fsx:DeleteStorageVirtualMachine";
                default -> "fsx:DeleteFileSystem";
            }, e);
        }
    }

    private void awaitFileSystems(StepContext ctx, List<DesiredState.WalFileSystem> wanted,
                                  Predicate<ObservedState.Resource> ready) {
        await(ctx, ObservedState.FSX_FILE_SYSTEM, wanted.stream().map(DesiredState.WalFileSystem::logicalName)
                .toList(), ready);
    }

    /**
     * Waits until every one of {@code logicalNames} of {@code type} is seen and {@code ready}, anchored on the earliest
     * time AWS says one of them began its lifecycle, and polling only that type.
     */
    private void await(StepContext ctx, String type, List<String> logicalNames, Predicate<ObservedState.Resource> ready) {
        Predicate<ObservedState.Resource> mine = r -> logicalNames.contains(r.logicalName());
        if (allReady(ctx, type, logicalNames, ready)) {
            return;
        }
        Instant since = ctx.observed().ofType(type).stream().filter(mine).map(StepContext::instant)
                .filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
        ctx.await(type, logicalNames + " to be ready", since, () -> {
            refresh(ctx, type);
            return allReady(ctx, type, logicalNames, ready);
        });
    }

    private static boolean allReady(StepContext ctx, String type, List<String> logicalNames,
                                    Predicate<ObservedState.Resource> ready) {
        return logicalNames.stream().allMatch(name -> ctx.observed().find(type, name).filter(ready).isPresent());
    }

    private void refresh(StepContext ctx, String type) {
        FSxClient fsx = ctx.aws().fsx();
        List<String> ids = ctx.observed().ofType(ObservedState.FSX_FILE_SYSTEM).stream()
                .map(ObservedState.Resource::id).toList();
        switch (type) {
            case ObservedState.FSX_FILE_SYSTEM -> refreshFileSystems(ctx);
            case ObservedState.FSX_SVM -> ctx.observed(List.of(type), svms(fsx, ids));
            default -> ctx.observed(List.of(type), volumes(fsx, ids));
        }
    }

    private void refreshFileSystems(StepContext ctx) {
        ctx.observed(List.of(ObservedState.FSX_FILE_SYSTEM), fileSystems(ctx.aws().fsx(), ctx.desired().instanceId()));
    }

    private void refreshAll(StepContext ctx) {
        ctx.observedOwn(observe(ctx.aws(), ctx.desired()));
    }

    private static ObservedState.Resource find(StepContext ctx, String type, String logicalName) {
        return ctx.observed().find(type, logicalName).orElseThrow(() -> new ProvisioningException("NOT_READY",
                logicalName + " (" + type + ") is not there yet; the step will be tried again.", true));
    }

    /**
     * A client token for a create: the same for the same request, so a repeated call (an answer lost, a worker gone)
     * returns what the first made; another for a create on other terms (a file system made anew in a security group
     * made anew, an SVM on a file system made anew), which AWS would refuse under the first token.
     */
    private static String token(String base, Object... terms) {
        return base + "-" + Integer.toHexString(Arrays.hashCode(terms));
    }

    private static boolean has(List<ResourceChange> changes, Action action, String logicalName) {
        return changes.stream().anyMatch(c -> c.action() == action && c.logicalName().equals(logicalName));
    }

    private static List<ObservedState.Resource> fileSystems(FSxClient fsx, UUID instanceId) {
        String id = instanceId.toString();
        List<FileSystem> fileSystems = AwsCalls.call("fsx:DescribeFileSystems", () -> fsx
                .describeFileSystemsPaginator(b -> b.build()).stream().flatMap(p -> p.fileSystems().stream())
                .filter(f -> id.equals(Tags.ofFsx(f.tags()).get(DesiredState.TAG_INSTANCE))).toList());
        List<ObservedState.Resource> out = new ArrayList<>();
        for (FileSystem f : fileSystems) {
            Map<String, String> attributes = new HashMap<>();
            attributes.put("lifecycle", f.lifecycleAsString());
            if (f.ontapConfiguration() != null && f.ontapConfiguration().throughputCapacity() != null) {
                attributes.put("throughputMBps", f.ontapConfiguration().throughputCapacity().toString());
            }
            Attributes.put(attributes, "dnsName", f.dnsName());
            Attributes.put(attributes, "since", f.creationTime());
            out.add(new ObservedState.Resource(ObservedState.FSX_FILE_SYSTEM, Tags.logicalName(Tags.ofFsx(f.tags())),
                    f.fileSystemId(), attributes));
        }
        return out;
    }

    private static List<ObservedState.Resource> svms(FSxClient fsx, List<String> fileSystemIds) {
        if (fileSystemIds.isEmpty()) {
            return List.of();
        }
        return AwsCalls.call("fsx:DescribeStorageVirtualMachines", () -> fsx.describeStorageVirtualMachinesPaginator(b -> b
                .filters(f -> f.name("file-system-id").values(fileSystemIds))).storageVirtualMachines().stream()
                .map(s -> {
                    Map<String, String> attributes = new HashMap<>(Map.of("lifecycle", s.lifecycleAsString(),
                            "fileSystemId", s.fileSystemId(), "name", s.name()));
                    if (s.endpoints() != null && s.endpoints().nfs() != null) {
                        Attributes.put(attributes, "nfsDnsName", s.endpoints().nfs().dnsName());
                    }
                    Attributes.put(attributes, "since", s.creationTime());
                    return new ObservedState.Resource(ObservedState.FSX_SVM, Tags.logicalName(Tags.ofFsx(s.tags())),
                            s.storageVirtualMachineId(), attributes);
                }).toList());
    }

    private static List<ObservedState.Resource> volumes(FSxClient fsx, List<String> fileSystemIds) {
        if (fileSystemIds.isEmpty()) {
            return List.of();
        }
        return AwsCalls.call("fsx:DescribeVolumes", () -> fsx.describeVolumesPaginator(b -> b
                .filters(f -> f.name("file-system-id").values(fileSystemIds))).volumes().stream()
                .filter(v -> v.ontapConfiguration() == null
                        || !Boolean.TRUE.equals(v.ontapConfiguration().storageVirtualMachineRoot()))
                .map(v -> {
                    Map<String, String> attributes = new HashMap<>(Map.of("lifecycle", v.lifecycleAsString(),
                            "fileSystemId", v.fileSystemId(), "name", v.name()));
                    if (v.ontapConfiguration() != null) {
                        Attributes.put(attributes, "junctionPath", v.ontapConfiguration().junctionPath());
                    }
                    Attributes.put(attributes, "since", v.creationTime());
                    return new ObservedState.Resource(ObservedState.FSX_VOLUME, Tags.logicalName(Tags.ofFsx(v.tags())),
                            v.volumeId(), attributes);
                }).toList());
    }
}

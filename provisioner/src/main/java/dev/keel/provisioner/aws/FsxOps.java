package dev.keel.provisioner.aws;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.aws.ObservedState.Resource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.fsx.model.StorageVirtualMachineNotFoundException;
import software.amazon.awssdk.services.fsx.model.Tag;
import software.amazon.awssdk.services.fsx.model.VolumeNotFoundException;

/**
 * FSx for ONTAP WAL file systems: per file system one storage virtual machine and one volume. Coded
 * against the real SDK; LocalStack has no FSx, so these run against the project's own emulator.
 */
final class FsxOps {

    static final long WAL_VOLUME_MB = 100L * 1024;

    private FsxOps() {
    }

    private static List<Resource> observe(StepContext ctx) {
        return Observer.fsx(ctx.aws(), ctx.target().instanceId());
    }

    private static Optional<Resource> find(StepContext ctx, String type, String logical) {
        return find(observe(ctx), type, logical);
    }

    private static Optional<Resource> find(List<Resource> observed, String type, String logical) {
        return observed.stream().filter(r -> r.type().equals(type) && r.logicalName().equals(logical)).findFirst();
    }

    /**
     * Where brokers mount each WAL file system from, in file-system order as the broker agent
     * expects: the SVM's NFS DNS name and the volume's junction path. AWS assigns them, so they
     * are read once the file systems exist (the step before the launch template).
     */
    static List<Map<String, Object>> nfsEndpoints(StepContext ctx) {
        if (ctx.desired().fileSystems().isEmpty()) {
            return List.of();
        }
        List<Resource> observed = observe(ctx);
        List<Map<String, Object>> endpoints = new ArrayList<>();
        for (DesiredState.WalFileSystem want : ctx.desired().fileSystems()) {
            String dnsName = find(observed, ObservedState.FSX_SVM, want.svmLogicalName())
                    .map(r -> r.attribute("nfsDnsName")).orElse(null);
            String junctionPath = find(observed, ObservedState.FSX_VOLUME, want.volumeLogicalName())
                    .map(r -> r.attribute("junctionPath")).orElse(null);
            if (dnsName == null || junctionPath == null) {
                throw new ProvisioningException("WAL_FILE_SYSTEM_NOT_READY", "WAL file system " + want.index()
                        + " has no NFS endpoint yet; it is created by the step before this one.", true);
            }
            Map<String, Object> endpoint = new LinkedHashMap<>();
            endpoint.put("index", want.index());
            endpoint.put("dnsName", dnsName);
            endpoint.put("junctionPath", junctionPath);
            endpoints.add(endpoint);
        }
        return endpoints;
    }

    private static List<Tag> tags(StepContext ctx, String logical) {
        List<Tag> out = new ArrayList<>();
        ctx.desired().tags(logical).forEach((k, v) -> out.add(Tag.builder().key(k).value(v).build()));
        return out;
    }

    /** Creates missing file systems, SVMs and volumes, updates throughput; with {@code removeSurplus} also deletes extras. */
    static void converge(StepContext ctx, boolean removeSurplus) {
        var fsx = ctx.aws().fsx();
        String groupId = Ec2Ops.findSecurityGroup(ctx).map(g -> g.groupId()).orElseThrow(() ->
                new ProvisioningException("NO_SECURITY_GROUP", "The security group must exist before the WAL file "
                        + "systems; run create-security-group first.", true));
        for (DesiredState.WalFileSystem want : ctx.desired().fileSystems()) {
            Resource fs = find(ctx, ObservedState.FSX_FILE_SYSTEM, want.logicalName()).orElse(null);
            if (fs == null) {
                AwsCalls.run("fsx:CreateFileSystem", () -> fsx.createFileSystem(b -> b
                        .clientRequestToken(want.clientToken()).fileSystemType("ONTAP")
                        .storageCapacity(want.storageGiB()).storageType("SSD").subnetIds(want.subnetIds())
                        .securityGroupIds(groupId).tags(tags(ctx, want.logicalName()))
                        .ontapConfiguration(o -> o.deploymentType(want.deploymentType())
                                .throughputCapacity(want.throughputMBps())
                                .preferredSubnetId(want.preferredSubnetId()))));
            } else if (!String.valueOf(want.throughputMBps()).equals(fs.attribute("throughputMBps"))
                    && "AVAILABLE".equals(fs.attribute("lifecycle"))) {
                String id = fs.id();
                AwsCalls.run("fsx:UpdateFileSystem", () -> fsx.updateFileSystem(b -> b.fileSystemId(id)
                        .clientRequestToken(want.clientToken() + "-t" + want.throughputMBps())
                        .ontapConfiguration(o -> o.throughputCapacity(want.throughputMBps()))));
            }
            ctx.await(want.logicalName() + " to be AVAILABLE at " + want.throughputMBps() + " MBps", () ->
                    find(ctx, ObservedState.FSX_FILE_SYSTEM, want.logicalName()).map(r ->
                            "AVAILABLE".equals(r.attribute("lifecycle"))
                                    && String.valueOf(want.throughputMBps()).equals(r.attribute("throughputMBps")))
                            .orElse(false));
            String fileSystemId = find(ctx, ObservedState.FSX_FILE_SYSTEM, want.logicalName()).orElseThrow().id();

            if (find(ctx, ObservedState.FSX_SVM, want.svmLogicalName()).isEmpty()) {
                AwsCalls.run("fsx:CreateStorageVirtualMachine", () -> fsx.createStorageVirtualMachine(b -> b
                        .fileSystemId(fileSystemId).name(want.svmName()).rootVolumeSecurityStyle("UNIX")
                        .clientRequestToken(want.clientToken() + "-svm").tags(tags(ctx, want.svmLogicalName()))));
            }
            ctx.await(want.svmLogicalName() + " to be CREATED", () -> find(ctx, ObservedState.FSX_SVM,
                    want.svmLogicalName()).map(r -> "CREATED".equals(r.attribute("lifecycle"))).orElse(false));
            String svmId = find(ctx, ObservedState.FSX_SVM, want.svmLogicalName()).orElseThrow().id();

            if (find(ctx, ObservedState.FSX_VOLUME, want.volumeLogicalName()).isEmpty()) {
                AwsCalls.run("fsx:CreateVolume", () -> fsx.createVolume(b -> b.volumeType("ONTAP")
                        .name(want.volumeName()).clientRequestToken(want.clientToken() + "-vol")
                        .tags(tags(ctx, want.volumeLogicalName()))
                        .ontapConfiguration(o -> o.storageVirtualMachineId(svmId).junctionPath("/wal")
                                .sizeInMegabytes(Math.toIntExact(WAL_VOLUME_MB)).securityStyle("UNIX")
                                .storageEfficiencyEnabled(false))));
            }
            ctx.await(want.volumeLogicalName() + " to be CREATED", () -> find(ctx, ObservedState.FSX_VOLUME,
                    want.volumeLogicalName()).map(r -> Set.of("CREATED", "AVAILABLE")
                    .contains(r.attribute("lifecycle"))).orElse(false));
        }
        if (removeSurplus) {
            Set<String> wanted = ctx.desired().fileSystems().stream()
                    .flatMap(f -> Stream.of(f.logicalName(), f.svmLogicalName(), f.volumeLogicalName()))
                    .collect(Collectors.toSet());
            delete(ctx, r -> !wanted.contains(r.logicalName()));
        }
    }

    static void deleteAll(StepContext ctx) {
        delete(ctx, r -> true);
    }

    private static void delete(StepContext ctx, java.util.function.Predicate<Resource> which) {
        var fsx = ctx.aws().fsx();
        List<Resource> seen = observe(ctx).stream().filter(which)
                .sorted(Comparator.comparing(Resource::logicalName).reversed()).toList();
        for (Resource v : seen.stream().filter(r -> r.type().equals(ObservedState.FSX_VOLUME)).toList()) {
            if (!"DELETING".equals(v.attribute("lifecycle"))) {
                try {
                    fsx.deleteVolume(b -> b.volumeId(v.id()).ontapConfiguration(o -> o.skipFinalBackup(true)));
                } catch (VolumeNotFoundException e) {
                    // gone
                } catch (SdkException e) {
                    throw AwsCalls.classify("fsx:DeleteVolume", e);
                }
            }
        }
        awaitGone(ctx, seen, ObservedState.FSX_VOLUME);
        for (Resource s : seen.stream().filter(r -> r.type().equals(ObservedState.FSX_SVM)).toList()) {
            if (!"DELETING".equals(s.attribute("lifecycle"))) {
                try {
                    fsx.deleteStorageVirtualMachine(b -> b.storageVirtualMachineId(s.id()));
                } catch (StorageVirtualMachineNotFoundException e) {
                    // gone
                } catch (SdkException e) {
                    throw AwsCalls.classify("fsx:DeleteStorageVirtualMachine", e);
                }
            }
        }
        awaitGone(ctx, seen, ObservedState.FSX_SVM);
        for (Resource f : seen.stream().filter(r -> r.type().equals(ObservedState.FSX_FILE_SYSTEM)).toList()) {
            if (!"DELETING".equals(f.attribute("lifecycle"))) {
                try {
                    fsx.deleteFileSystem(b -> b.fileSystemId(f.id()).clientRequestToken("keel-delete-" + f.id()));
                } catch (FileSystemNotFoundException e) {
                    // gone
                } catch (SdkException e) {
                    throw AwsCalls.classify("fsx:DeleteFileSystem", e);
                }
            }
        }
        awaitGone(ctx, seen, ObservedState.FSX_FILE_SYSTEM);
    }

    private static void awaitGone(StepContext ctx, List<Resource> deleted, String type) {
        Set<String> ids = deleted.stream().filter(r -> r.type().equals(type)).map(Resource::id)
                .collect(Collectors.toSet());
        if (ids.isEmpty()) {
            return;
        }
        ctx.await(type + " " + ids + " to be deleted", () -> observe(ctx).stream().noneMatch(r -> ids.contains(r.id())));
    }
}

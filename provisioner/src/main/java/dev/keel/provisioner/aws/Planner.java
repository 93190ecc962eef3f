package dev.keel.provisioner.aws;

import static dev.keel.provisioner.aws.ObservedState.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.aws.ObservedState.Resource;
import dev.keel.provisioner.ResourceChange.Action;

/**
 * Compares desired with observed state and lists what an apply of a change would do. Pure: it calls
 * nothing. CREATE and REPAIR only add and fix; UPDATE also removes surplus brokers, WAL volumes and
 * file systems; DELETE removes everything observed, in the order the delete steps do.
 */
public final class Planner {

    /** Deletion order: dependants first. */
    static final List<String> DELETE_ORDER = List.of(EC2_INSTANCE, EBS_VOLUME, LAUNCH_TEMPLATE, FSX_VOLUME, FSX_SVM,
            FSX_FILE_SYSTEM, SECURITY_GROUP, IAM_INSTANCE_PROFILE, IAM_ROLE, S3_BUCKET);

    private Planner() {
    }

    public static List<ResourceChange> plan(ChangeKind kind, DesiredState desired, ObservedState observed) {
        return plan(kind, desired, observed, Set.of());
    }

    /** With broker machines ({@code impairedBrokers}, EC2 instance ids) that stopped reporting: CREATE, UPDATE and REPAIR replace them. */
    public static List<ResourceChange> plan(ChangeKind kind, DesiredState desired, ObservedState observed,
                                            Set<String> impairedBrokers) {
        if (kind == ChangeKind.DELETE) {
            return observed.resources().stream()
                    .sorted(Comparator.comparingInt((Resource r) -> DELETE_ORDER.indexOf(r.type()))
                            .thenComparing(Resource::logicalName))
                    .map(r -> new ResourceChange(Action.DELETE, r.type(), r.logicalName(), r.id(),
                            "the instance is being deleted"))
                    .toList();
        }
        List<ResourceChange> changes = new ArrayList<>();
        for (DesiredState.Bucket b : List.of(desired.dataBucket(), desired.opsBucket())) {
            createIfMissing(changes, observed, S3_BUCKET, b.logicalName(), "bucket " + b.name());
        }
        createIfMissing(changes, observed, IAM_ROLE, "broker-role", "role " + desired.role().roleName());
        createIfMissing(changes, observed, IAM_INSTANCE_PROFILE, "broker-instance-profile",
                "instance profile " + desired.role().profileName());
        createIfMissing(changes, observed, SECURITY_GROUP, desired.securityGroup().logicalName(),
                "security group " + desired.securityGroup().groupName() + " in " + desired.securityGroup().vpcId());
        for (DesiredState.WalFileSystem fs : desired.fileSystems()) {
            var seen = observed.find(FSX_FILE_SYSTEM, fs.logicalName());
            if (seen.isEmpty()) {
                changes.add(new ResourceChange(Action.CREATE, FSX_FILE_SYSTEM, fs.logicalName(), null,
                        fs.deploymentType() + " ONTAP, " + fs.throughputMBps() + " MBps"));
            } else if (!String.valueOf(fs.throughputMBps()).equals(seen.get().attribute("throughputMBps"))) {
                changes.add(new ResourceChange(Action.UPDATE, FSX_FILE_SYSTEM, fs.logicalName(), seen.get().id(),
                        "throughput " + seen.get().attribute("throughputMBps") + " -> " + fs.throughputMBps()
                                + " MBps"));
            }
            createIfMissing(changes, observed, FSX_SVM, fs.svmLogicalName(), "storage virtual machine "
                    + fs.svmName());
            createIfMissing(changes, observed, FSX_VOLUME, fs.volumeLogicalName(), "ONTAP volume "
                    + fs.volumeName());
        }
        DesiredState.LaunchTemplate lt = desired.launchTemplate();
        var seenLt = observed.find(LAUNCH_TEMPLATE, lt.logicalName());
        if (seenLt.isEmpty()) {
            changes.add(new ResourceChange(Action.CREATE, LAUNCH_TEMPLATE, lt.logicalName(), null,
                    "image " + lt.imageId() + ", " + lt.instanceType() + ", spec " + lt.specVersion()));
        } else if (!lt.specVersion().equals(seenLt.get().attribute("specVersion"))) {
            changes.add(new ResourceChange(Action.UPDATE, LAUNCH_TEMPLATE, lt.logicalName(), seenLt.get().id(),
                    "new default version: spec " + seenLt.get().attribute("specVersion") + " -> " + lt.specVersion()));
        }
        for (DesiredState.Broker b : desired.brokers()) {
            var seen = observed.find(EC2_INSTANCE, b.logicalName());
            if (seen.isPresent() && impairedBrokers.contains(seen.get().id())) {
                changes.add(new ResourceChange(Action.REPLACE, EC2_INSTANCE, b.logicalName(), seen.get().id(),
                        "its broker agent stopped reporting: a new instance takes over node " + b.nodeId()));
            }
            createIfMissing(changes, observed, EC2_INSTANCE, b.logicalName(),
                    "node " + b.nodeId() + " in " + b.availabilityZone() + " (" + b.subnetId() + ")");
        }
        for (DesiredState.WalVolume v : desired.walVolumes()) {
            var seen = observed.find(EBS_VOLUME, v.logicalName());
            if (seen.isEmpty()) {
                changes.add(new ResourceChange(Action.CREATE, EBS_VOLUME, v.logicalName(), null,
                        v.volumeType() + " " + v.sizeGiB() + " GiB in " + v.availabilityZone()
                                + ", attached to broker-" + v.nodeId()));
            } else if (seen.get().attribute("attachedTo") == null) {
                changes.add(new ResourceChange(Action.UPDATE, EBS_VOLUME, v.logicalName(), seen.get().id(),
                        "attach to broker-" + v.nodeId()));
            }
        }
        if (kind == ChangeKind.UPDATE) {
            Set<String> wanted = desired.brokers().stream().map(DesiredState.Broker::logicalName)
                    .collect(Collectors.toSet());
            observed.ofType(EC2_INSTANCE).stream()
                    .filter(r -> !wanted.contains(r.logicalName()))
                    .sorted(Comparator.comparingInt((Resource r) -> nodeId(r)).reversed())
                    .forEach(r -> changes.add(new ResourceChange(Action.DELETE, EC2_INSTANCE, r.logicalName(),
                            r.id(), "surplus broker (drained, then terminated)")));
            Set<String> wantedVolumes = desired.walVolumes().stream().map(DesiredState.WalVolume::logicalName)
                    .collect(Collectors.toSet());
            observed.ofType(EBS_VOLUME).stream().filter(r -> !wantedVolumes.contains(r.logicalName()))
                    .forEach(r -> changes.add(new ResourceChange(Action.DELETE, EBS_VOLUME, r.logicalName(), r.id(),
                            "WAL volume of a surplus broker")));
            Set<String> wantedFs = desired.fileSystems().stream()
                    .flatMap(f -> java.util.stream.Stream.of(f.logicalName(), f.svmLogicalName(),
                            f.volumeLogicalName()))
                    .collect(Collectors.toSet());
            for (String type : List.of(FSX_VOLUME, FSX_SVM, FSX_FILE_SYSTEM)) {
                observed.ofType(type).stream().filter(r -> !wantedFs.contains(r.logicalName()))
                        .forEach(r -> changes.add(new ResourceChange(Action.DELETE, type, r.logicalName(), r.id(),
                                "surplus WAL file system")));
            }
        }
        return List.copyOf(changes);
    }

    static int nodeId(Resource r) {
        String node = r.attribute("nodeId");
        return node == null ? -1 : Integer.parseInt(node);
    }

    private static void createIfMissing(List<ResourceChange> changes, ObservedState observed, String type,
                                        String logicalName, String what) {
        if (observed.find(type, logicalName).isEmpty()) {
            changes.add(new ResourceChange(Action.CREATE, type, logicalName, null, what));
        }
    }
}

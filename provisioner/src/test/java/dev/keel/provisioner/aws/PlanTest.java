package dev.keel.provisioner.aws;

import static dev.keel.provisioner.aws.ObservedState.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ListenerSecurity;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.WalType;
import dev.keel.provisioner.ResourceChange.Action;

/** What a change would do, from an observation: its steps' diffs, concatenated. */
class PlanTest {

    static DesiredState ebs(int brokers) {
        return DesiredStateTest.of(WalType.EBS, brokers, 3);
    }

    static List<ResourceChange> plan(ChangeKind kind, DesiredState desired, ObservedState observed) {
        return AwsProvisioningDriver.plan(kind, desired, observed, false);
    }

    /** What a completed apply of {@code d} would leave. */
    static ObservedState converged(DesiredState d) {
        List<Resource> r = new ArrayList<>();
        r.add(new Resource(S3_BUCKET, "data-bucket", d.dataBucket().name(),
                Map.of("configured", "true", "policy", d.dataBucket().policy().json())));
        r.add(new Resource(S3_BUCKET, "ops-bucket", d.opsBucket().name(),
                Map.of("configured", "true", "policy", d.opsBucket().policy().json())));
        r.add(new Resource(IAM_ROLE, "broker-role", d.role().roleName(), Map.of("policy", d.role().policy(),
                "boundary", d.role().permissionsBoundary())));
        r.add(new Resource(IAM_INSTANCE_PROFILE, "broker-instance-profile", d.role().profileName(),
                Map.of("roles", d.role().roleName())));
        String ingress = String.join(",", d.securityGroup().ingress().stream().map(rule -> rule.protocol() + ":"
                + rule.fromPort() + "-" + rule.toPort() + ":" + (rule.source() == DesiredState.Source.VPC_CIDR
                ? "cidr:10.0.0.0/16" : "group:sg-1")).toList());
        r.add(new Resource(SECURITY_GROUP, "security-group", "sg-1",
                Map.of("ingress", ingress, "vpcCidr", "10.0.0.0/16")));
        List<DesiredState.NfsEndpoint> endpoints = d.fileSystems().stream()
                .map(f -> new DesiredState.NfsEndpoint(f.index(), "svm-" + f.index() + ".fsx", "/wal")).toList();
        Map<String, String> template = new java.util.HashMap<>(Map.of("specVersion", d.launchTemplate().specVersion(),
                "securityGroupId", "sg-1"));
        if (!endpoints.isEmpty()) {
            template.put("walNfsEndpoints", Json.write(endpoints));
        }
        r.add(new Resource(LAUNCH_TEMPLATE, "launch-template", "lt-1", template));
        for (var b : d.brokers()) {
            r.add(new Resource(EC2_INSTANCE, b.logicalName(), "i-" + b.nodeId(),
                    Map.of("state", "running", "nodeId", "" + b.nodeId(), "securityGroups", "sg-1")));
        }
        for (var v : d.walVolumes()) {
            r.add(new Resource(EBS_VOLUME, v.logicalName(), "vol-" + v.nodeId(),
                    Map.of("nodeId", "" + v.nodeId(), "attachedTo", "i-" + v.nodeId())));
        }
        for (var f : d.fileSystems()) {
            r.add(new Resource(FSX_FILE_SYSTEM, f.logicalName(), "fs-" + f.index(),
                    Map.of("throughputMBps", "" + f.throughputMBps(), "lifecycle", "AVAILABLE")));
            r.add(new Resource(FSX_SVM, f.svmLogicalName(), "svm-" + f.index(),
                    Map.of("nfsDnsName", "svm-" + f.index() + ".fsx")));
            r.add(new Resource(FSX_VOLUME, f.volumeLogicalName(), "fsvol-" + f.index(), Map.of("junctionPath", "/wal")));
        }
        return new ObservedState(r);
    }

    @Test
    void aSecureInstancesGroupThatLostTheInterBrokerRuleGetsItBackAndNothingElseChanges() {
        DesiredState secure = DesiredStateTest.of(Targets.target(DesiredStateTest.ID, WalType.S3, 3, Targets.zones(3),
                Targets.ACCOUNT, "vpc-1").withListenerSecurity(ListenerSecurity.SASL_SSL));
        assertThat(plan(ChangeKind.REPAIR, secure, converged(secure))).isEmpty();
        List<Resource> lost = new ArrayList<>();
        for (Resource r : converged(secure).resources()) {
            lost.add(!r.type().equals(SECURITY_GROUP) ? r : new Resource(SECURITY_GROUP, r.logicalName(), r.id(),
                    Map.of("ingress", r.attribute("ingress").replace(",tcp:9094-9094:group:sg-1", ""),
                            "vpcCidr", r.attribute("vpcCidr"))));
        }
        assertThat(plan(ChangeKind.REPAIR, secure, new ObservedState(lost))).singleElement().satisfies(c -> {
            assertThat(c.action()).isEqualTo(Action.UPDATE);
            assertThat(c.logicalName()).isEqualTo("security-group");
            assertThat(c.reason()).isEqualTo("restore ingress tcp 9094 (Kafka inter-broker (mutual TLS))");
        });
    }

    @Test
    void fromNothingEverythingIsCreated() {
        var changes = plan(ChangeKind.CREATE, ebs(3), NOTHING);
        assertThat(changes).allMatch(c -> c.action() == Action.CREATE);
        assertThat(changes).extracting(ResourceChange::logicalName).containsExactly("data-bucket", "ops-bucket",
                "broker-role", "broker-instance-profile", "security-group", "launch-template", "wal-volume-0",
                "wal-volume-1", "wal-volume-2", "broker-0", "broker-1", "broker-2");
    }

    @Test
    void convergedStateNeedsNoChange() {
        for (ChangeKind kind : List.of(ChangeKind.CREATE, ChangeKind.UPDATE, ChangeKind.REPAIR)) {
            assertThat(plan(kind, ebs(3), converged(ebs(3)))).as(kind.name()).isEmpty();
        }
        var fsx = DesiredStateTest.of(WalType.FSWAL, 3, 3);
        assertThat(plan(ChangeKind.UPDATE, fsx, converged(fsx))).isEmpty();
    }

    @Test
    void scaleUpLaunchesOnlyTheMissingNodesAndNewLaunchTemplateVersion() {
        var changes = plan(ChangeKind.UPDATE, ebs(6), converged(ebs(3)));
        assertThat(changes).filteredOn(c -> c.type().equals(EC2_INSTANCE)).extracting(ResourceChange::logicalName)
                .containsExactly("broker-3", "broker-4", "broker-5");
        assertThat(changes).filteredOn(c -> c.type().equals(LAUNCH_TEMPLATE)).singleElement()
                .extracting(ResourceChange::action).isEqualTo(Action.UPDATE);
        assertThat(changes).noneMatch(c -> c.action() == Action.DELETE);
    }

    @Test
    void scaleDownRetiresHighestNodeIdsFirstWithTheirVolumes() {
        var changes = plan(ChangeKind.UPDATE, ebs(3), converged(ebs(6)));
        assertThat(changes).filteredOn(c -> c.action() == Action.DELETE && c.type().equals(EC2_INSTANCE))
                .extracting(ResourceChange::logicalName).containsExactly("broker-5", "broker-4", "broker-3");
        assertThat(changes).filteredOn(c -> c.action() == Action.DELETE && c.type().equals(EBS_VOLUME))
                .extracting(ResourceChange::logicalName)
                .containsExactlyInAnyOrder("wal-volume-3", "wal-volume-4", "wal-volume-5");
        // CREATE and REPAIR never delete
        assertThat(plan(ChangeKind.REPAIR, ebs(3), converged(ebs(6)))).noneMatch(c -> c.action() == Action.DELETE);
    }

    @Test
    void fsxThroughputAndCountChanges() {
        var before = DesiredStateTest.of(WalType.FSWAL, 3, 3);
        var target = Targets.target(DesiredStateTest.ID, WalType.FSWAL, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1");
        var after = DesiredStateTest.of(target.resized(3, 3, 512, 2));
        var changes = plan(ChangeKind.UPDATE, after, converged(before));
        assertThat(changes).filteredOn(c -> c.type().startsWith("fsx")).extracting(ResourceChange::action,
                ResourceChange::logicalName).containsExactly(
                org.assertj.core.groups.Tuple.tuple(Action.UPDATE, "wal-fs-0"),
                org.assertj.core.groups.Tuple.tuple(Action.CREATE, "wal-fs-1"),
                org.assertj.core.groups.Tuple.tuple(Action.CREATE, "wal-svm-1"),
                org.assertj.core.groups.Tuple.tuple(Action.CREATE, "wal-fs-volume-1"));
        var shrink = plan(ChangeKind.UPDATE, before, converged(after));
        assertThat(shrink).filteredOn(c -> c.action() == Action.DELETE).extracting(ResourceChange::logicalName)
                .containsExactly("wal-fs-volume-1", "wal-svm-1", "wal-fs-1");
    }

    @Test
    void deleteRemovesEverythingDependantsFirst() {
        var changes = plan(ChangeKind.DELETE, ebs(3), converged(ebs(3)));
        assertThat(changes).allMatch(c -> c.action() == Action.DELETE).hasSize(converged(ebs(3)).resources().size());
        assertThat(changes).extracting(ResourceChange::type).containsSubsequence(EC2_INSTANCE, EBS_VOLUME,
                LAUNCH_TEMPLATE, SECURITY_GROUP, IAM_INSTANCE_PROFILE, IAM_ROLE, S3_BUCKET);
        assertThat(plan(ChangeKind.DELETE, ebs(3), NOTHING)).isEmpty();
    }

    @Test
    void unattachedWalVolumeIsAnUpdate() {
        var d = ebs(1);
        var observed = new ArrayList<>(converged(d).resources());
        observed.removeIf(r -> r.type().equals(EBS_VOLUME));
        observed.add(new Resource(EBS_VOLUME, "wal-volume-0", "vol-0", Map.of("nodeId", "0")));
        assertThat(plan(ChangeKind.REPAIR, d, new ObservedState(observed))).singleElement()
                .satisfies(c -> assertThat(c.toString()).isEqualTo("~ ebs-volume wal-volume-0 (vol-0): attach to broker-0"));
    }

    @Test
    void aBrokerEc2ReportsImpairedIsReplacedByEveryConvergingChange() {
        DesiredState d = established(3);
        ObservedState observed = withMachines(converged(d), Map.of("i-1", Map.of("impaired", "true")));
        for (ChangeKind kind : List.of(ChangeKind.CREATE, ChangeKind.UPDATE, ChangeKind.REPAIR)) {
            assertThat(plan(kind, d, observed)).as(kind.name()).singleElement()
                    .satisfies(c -> assertThat(c.toString()).isEqualTo("-/+ ec2-instance broker-1 (i-1): "
                            + "EC2 reports its status checks impaired: a new instance takes over node 1"));
        }
    }

    @Test
    void aRunningMachineIsNeverReplacedForWantOfEvidence() {
        DesiredState d = established(3);
        assertThat(plan(ChangeKind.REPAIR, d, converged(d))).as("its agent's silence is no evidence").isEmpty();
    }

    @Test
    void oneEstablishedBrokerIsReplacedAtATimeLowestNodeFirst() {
        DesiredState d = established(3);
        ObservedState twoImpaired = withMachines(converged(d), Map.of("i-1", Map.of("impaired", "true"),
                "i-2", Map.of("impaired", "true")));
        assertThat(plan(ChangeKind.REPAIR, d, twoImpaired)).extracting(ResourceChange::logicalName)
                .containsExactly("broker-1");
        ObservedState twoGone = withMachines(converged(d), Map.of("i-0", Map.of("state", "terminated"),
                "i-2", Map.of("state", "shutting-down")));
        assertThat(plan(ChangeKind.REPAIR, d, twoGone)).singleElement().satisfies(c -> assertThat(c.toString())
                .isEqualTo("+ ec2-instance broker-0: its machine is gone: a new one takes over node 0 in us-east-1a "
                        + "(subnet-a)"));
        ObservedState goneAndImpaired = withMachines(converged(d), Map.of("i-0", Map.of("state", "terminated"),
                "i-1", Map.of("impaired", "true")));
        assertThat(plan(ChangeKind.REPAIR, d, goneAndImpaired)).extracting(ResourceChange::logicalName)
                .containsExactly("broker-0");
    }

    @Test
    void aScaleUpLaunchesEveryNewBrokerAtOnceBesideOneReplacement() {
        DesiredState before = established(3);
        DesiredState bigger = DesiredStateTest.of(Targets.target(DesiredStateTest.ID, WalType.S3, 6, Targets.zones(3),
                Targets.ACCOUNT, "vpc-1").withObserved(inventory(3)));
        ObservedState observed = withMachines(converged(before), Map.of("i-0", Map.of("state", "terminated"),
                "i-1", Map.of("state", "terminated")));
        assertThat(plan(ChangeKind.UPDATE, bigger, observed)).filteredOn(c -> c.type().equals(EC2_INSTANCE))
                .extracting(ResourceChange::logicalName)
                .containsExactly("broker-0", "broker-3", "broker-4", "broker-5");
        DesiredState created = DesiredStateTest.of(WalType.S3, 3, 3);
        assertThat(plan(ChangeKind.CREATE, created, NOTHING)).filteredOn(c -> c.type().equals(EC2_INSTANCE))
                .as("a create has no broker yet to replace").hasSize(3);
    }

    /** An S3-WAL instance of {@code brokers} brokers, each established (in the inventory it last observed). */
    private static DesiredState established(int brokers) {
        return DesiredStateTest.of(Targets.target(DesiredStateTest.ID, WalType.S3, brokers, Targets.zones(3),
                Targets.ACCOUNT, "vpc-1").withObserved(inventory(brokers)));
    }

    private static Inventory inventory(int brokers) {
        return new Inventory(null, java.util.stream.IntStream.range(0, brokers)
                .mapToObj(n -> new Inventory.Broker(n, "us-east-1a", "10.0.0." + n + ":9092", "i-" + n)).toList(),
                List.of(), Targets.BOOT);
    }

    /** {@code observed} with the attributes of the machines {@code changed} names changed as it says. */
    private static ObservedState withMachines(ObservedState observed, Map<String, Map<String, String>> changed) {
        return new ObservedState(observed.resources().stream().map(r -> {
            if (!changed.containsKey(r.id())) {
                return r;
            }
            Map<String, String> attributes = new java.util.HashMap<>(r.attributes());
            attributes.putAll(changed.get(r.id()));
            return new Resource(r.type(), r.logicalName(), r.id(), attributes);
        }).toList());
    }
}

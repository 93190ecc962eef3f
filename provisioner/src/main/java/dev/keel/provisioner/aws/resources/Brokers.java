package dev.keel.provisioner.aws.resources;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.ResourceType;

/**
 * One EC2 instance per broker, launched from the launch template's default version into its zone's subnet, with
 * its node's WAL volume (EBS WAL) attached. A machine taken for lost is replaced by a new one for the same node; a
 * broker whose security group was made anew is moved to it; surplus brokers (drained by the control plane first)
 * are terminated, highest node first.
 */
public final class Brokers implements ManagedResource {

    private static final List<String> NOT_TERMINATED = List.of("pending", "running", "shutting-down", "stopping",
            "stopped");

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        UUID instanceId = desired.instanceId();
        return instances(aws.ec2(), instanceId, NOT_TERMINATED).stream().map(Brokers::resource).toList();
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        List<ResourceChange> changes = new ArrayList<>();
        Optional<String> groupId = observed.idOf(ObservedState.SECURITY_GROUP, desired.securityGroup().logicalName());
        for (DesiredState.Broker broker : desired.brokers()) {
            ObservedState.Resource live = live(observed, broker.logicalName()).orElse(null);
            if (live == null) {
                changes.add(new ResourceChange(Action.CREATE, ObservedState.EC2_INSTANCE, broker.logicalName(), null,
                        "node " + broker.nodeId() + " in " + broker.availabilityZone() + " (" + broker.subnetId() + ")"));
                continue;
            }
            if (desired.lostMachines().contains(live.id())) {
                changes.add(new ResourceChange(Action.REPLACE, ObservedState.EC2_INSTANCE, broker.logicalName(),
                        live.id(), "its broker agent stopped reporting: a new instance takes over node "
                        + broker.nodeId()));
                continue;
            }
            if ("stopped".equals(live.attribute("state"))) {
                changes.add(new ResourceChange(Action.UPDATE, ObservedState.EC2_INSTANCE, broker.logicalName(),
                        live.id(), "stopped: start it"));
            }
            String groups = Objects.requireNonNullElse(live.attribute("securityGroups"), "");
            if (groupId.isEmpty() || !List.of(groups.split(",")).contains(groupId.get())) {
                changes.add(new ResourceChange(Action.UPDATE, ObservedState.EC2_INSTANCE, broker.logicalName(),
                        live.id(), "move to the brokers' security group, "
                        + groupId.map(id -> id).orElse("to be created anew")));
            }
            walVolume(desired, broker).ifPresent(wal -> {
                var volume = observed.find(ObservedState.EBS_VOLUME, wal.logicalName());
                if (volume.isEmpty() || !live.id().equals(volume.get().attribute("attachedTo"))) {
                    changes.add(new ResourceChange(Action.UPDATE, ObservedState.EBS_VOLUME, wal.logicalName(),
                            volume.map(ObservedState.Resource::id).orElse(null), "attach to " + broker.logicalName()));
                }
            });
        }
        // A machine already on its way out is no longer surplus.
        ObservedState alive = new ObservedState(observed.ofType(ObservedState.EC2_INSTANCE).stream()
                .filter(Brokers::alive).toList());
        changes.addAll(Surplus.of(alive, ObservedState.EC2_INSTANCE, desired.brokers().stream()
                        .map(DesiredState.Broker::logicalName).toList(),
                Comparator.comparingInt(ObservedState.Resource::nodeId).reversed(),
                "surplus broker (drained, then terminated)"));
        return changes;
    }

    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        Ec2Client ec2 = ctx.aws().ec2();
        List<String> replaced = changes.stream().filter(c -> c.action() == Action.REPLACE).map(ResourceChange::id)
                .toList();
        // The machine taken for lost goes first: its node's WAL volume moves to the new one.
        terminate(ctx, replaced);
        launch(ctx, changes.stream().filter(c -> c.action() == Action.CREATE || c.action() == Action.REPLACE)
                .map(ResourceChange::logicalName).toList());
        for (ResourceChange change : changes) {
            if (change.action() != Action.UPDATE || !change.type().equals(ObservedState.EC2_INSTANCE)) {
                continue;
            }
            if (change.reason().startsWith("stopped")) {
                AwsCalls.run("ec2:StartInstances", () -> ec2.startInstances(b -> b.instanceIds(change.id())));
            } else {
                String groupId = ctx.observed().idOf(ObservedState.SECURITY_GROUP,
                        ctx.desired().securityGroup().logicalName()).orElseThrow();
                AwsCalls.run("ec2:ModifyInstanceAttribute", () -> ec2.modifyInstanceAttribute(b -> b
                        .instanceId(change.id()).groups(groupId)));
            }
        }
        awaitRunning(ctx);
        attachWalVolumes(ctx);
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        terminate(ctx, deletes.stream().map(ResourceChange::id).toList());
    }

    /** Launches the brokers {@code logicalNames}; a node launched before gets a new client token for each new machine. */
    private void launch(StepContext ctx, List<String> logicalNames) {
        if (logicalNames.isEmpty()) {
            return;
        }
        DesiredState desired = ctx.desired();
        String templateId = ctx.observed().idOf(ObservedState.LAUNCH_TEMPLATE, desired.launchTemplate().logicalName())
                .orElseThrow(() -> new ProvisioningException("NO_LAUNCH_TEMPLATE", "The launch template must exist "
                        + "before brokers launch; run create-launch-template first.", true));
        String groupId = ctx.observed().idOf(ObservedState.SECURITY_GROUP, desired.securityGroup().logicalName())
                .orElseThrow(() -> new ProvisioningException("NO_SECURITY_GROUP", "The security group must exist "
                        + "before brokers launch; run create-security-group first.", true));
        // Terminated machines count too: a token that launched one would return it, dead.
        Map<String, Long> launchedBefore = instances(ctx.aws().ec2(), desired.instanceId(), List.of()).stream()
                .collect(Collectors.groupingBy(i -> Tags.logicalName(Tags.ofEc2(i.tags())), Collectors.counting()));
        for (DesiredState.Broker broker : desired.brokers()) {
            if (!logicalNames.contains(broker.logicalName())) {
                continue;
            }
            long generation = launchedBefore.getOrDefault(broker.logicalName(), 0L);
            String token = generation == 0 ? broker.clientToken() : broker.clientToken() + "-g" + generation;
            var tags = desired.brokerTags(broker.nodeId(), broker.logicalName());
            var rootTags = desired.tags("root-volume-" + broker.nodeId());
            AwsCalls.run("ec2:RunInstances", () -> ctx.aws().ec2().runInstances(b -> b
                    .launchTemplate(t -> t.launchTemplateId(templateId).version("$Default"))
                    // The template names the group too; said again here, so no EC2 implementation can miss it.
                    .minCount(1).maxCount(1).subnetId(broker.subnetId()).securityGroupIds(groupId).clientToken(token)
                    .tagSpecifications(Tags.ec2(ResourceType.INSTANCE, tags), Tags.ec2(ResourceType.VOLUME, rootTags))));
        }
    }

    private void awaitRunning(StepContext ctx) {
        if (running(ctx)) {
            return;
        }
        Instant since = ctx.observed().ofType(ObservedState.EC2_INSTANCE).stream()
                .filter(r -> !"running".equals(r.attribute("state"))).map(StepContext::instant)
                .filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
        ctx.await(ObservedState.EC2_INSTANCE, "brokers to be running with private addresses", since, () -> {
            refresh(ctx);
            return running(ctx);
        });
    }

    private static boolean running(StepContext ctx) {
        return ctx.desired().brokers().stream().allMatch(b -> live(ctx.observed(), b.logicalName())
                .filter(r -> "running".equals(r.attribute("state")) && r.attribute("privateIp") != null)
                .isPresent());
    }

    /**
     * Attaches each node's WAL volume to its running broker where it is not attached already, once a machine that
     * held it before (one just replaced) has let it go.
     */
    private void attachWalVolumes(StepContext ctx) {
        DesiredState desired = ctx.desired();
        if (desired.walVolumes().isEmpty()) {
            return;
        }
        ctx.refresh(List.of(ObservedState.EBS_VOLUME));
        Set<String> brokers = ctx.observed().ofType(ObservedState.EC2_INSTANCE).stream().filter(Brokers::alive)
                .map(ObservedState.Resource::id).collect(Collectors.toSet());
        BooleanSupplier released = () -> ctx.observed().ofType(ObservedState.EBS_VOLUME).stream()
                .map(v -> v.attribute("attachedTo")).allMatch(machine -> machine == null || brokers.contains(machine));
        awaitRefreshed(ctx, "WAL volumes to be released by machines that are gone", released);
        Map<String, String> wanted = new HashMap<>();
        for (DesiredState.WalVolume wal : desired.walVolumes()) {
            ObservedState.Resource broker = live(ctx.observed(), DesiredState.brokerName(wal.nodeId())).orElseThrow();
            ObservedState.Resource volume = ctx.observed().find(ObservedState.EBS_VOLUME, wal.logicalName())
                    .orElseThrow(() -> new ProvisioningException("NO_WAL_VOLUME", wal.logicalName()
                            + " does not exist; create-wal-volumes makes it before the brokers launch.", true));
            wanted.put(volume.id(), broker.id());
            if (broker.id().equals(volume.attribute("attachedTo"))) {
                continue;
            }
            if (volume.attribute("attachedTo") != null) {
                throw new ProvisioningException("WAL_VOLUME_ATTACHED_ELSEWHERE", wal.logicalName() + " ("
                        + volume.id() + ") is attached to " + volume.attribute("attachedTo") + ", not to "
                        + broker.id() + "; the step will retry once it is released.", true);
            }
            AwsCalls.run("ec2:AttachVolume", () -> ctx.aws().ec2().attachVolume(b -> b.volumeId(volume.id())
                    .instanceId(broker.id()).device(wal.device())));
        }
        awaitRefreshed(ctx, "WAL volumes to be attached", () -> wanted.entrySet().stream().allMatch(e -> ctx.observed()
                .resources().stream().anyMatch(v -> v.id().equals(e.getKey())
                        && e.getValue().equals(v.attribute("attachedTo")))));
    }

    /** Waits until {@code done} holds of the WAL volumes as last seen, looking at them again between checks. */
    private static void awaitRefreshed(StepContext ctx, String what, BooleanSupplier done) {
        if (done.getAsBoolean()) {
            return;
        }
        ctx.await(ObservedState.EBS_VOLUME, what, null, () -> {
            ctx.refresh(List.of(ObservedState.EBS_VOLUME));
            return done.getAsBoolean();
        });
    }

    private void terminate(StepContext ctx, List<String> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            ctx.aws().ec2().terminateInstances(b -> b.instanceIds(ids));
        } catch (SdkException e) {
            if (!AwsCalls.hasCode(e, "InvalidInstanceID.NotFound")) {
                throw AwsCalls.classify("ec2:TerminateInstances", e);
            }
        }
        ctx.await(ObservedState.EC2_INSTANCE, "instances " + ids + " to be terminated", null, () -> {
            refresh(ctx);
            return ctx.observed().ofType(ObservedState.EC2_INSTANCE).stream().noneMatch(r -> ids.contains(r.id()));
        });
    }

    private void refresh(StepContext ctx) {
        ctx.observedOwn(observe(ctx.aws(), ctx.desired()));
    }

    private static Optional<DesiredState.WalVolume> walVolume(DesiredState desired, DesiredState.Broker broker) {
        return desired.walVolumes().stream().filter(v -> v.nodeId() == broker.nodeId()).findFirst();
    }

    private static Optional<ObservedState.Resource> live(ObservedState observed, String logicalName) {
        return observed.ofType(ObservedState.EC2_INSTANCE).stream()
                .filter(r -> r.logicalName().equals(logicalName) && alive(r)).findFirst();
    }

    private static boolean alive(ObservedState.Resource instance) {
        String state = instance.attribute("state");
        return !"terminated".equals(state) && !"shutting-down".equals(state);
    }

    /** The instance's machines in {@code states} (none given: in any state, terminated included). */
    private static List<Instance> instances(Ec2Client ec2, UUID instanceId, List<String> states) {
        List<Filter> filters = new ArrayList<>(List.of(Tags.byInstance(instanceId)));
        if (!states.isEmpty()) {
            filters.add(Tags.filter("instance-state-name", states.toArray(String[]::new)));
        }
        return AwsCalls.call("ec2:DescribeInstances", () -> ec2.describeInstancesPaginator(b -> b.filters(filters))
                .reservations().stream().flatMap(r -> r.instances().stream()).toList());
    }

    private static ObservedState.Resource resource(Instance i) {
        Map<String, String> tags = Tags.ofEc2(i.tags());
        Map<String, String> attributes = new HashMap<>();
        attributes.put("state", i.state().nameAsString());
        attributes.put("securityGroups", String.join(",", i.securityGroups().stream().map(g -> g.groupId()).toList()));
        Attributes.put(attributes, "availabilityZone", i.placement() == null ? null : i.placement().availabilityZone());
        Attributes.put(attributes, "privateIp", i.privateIpAddress());
        Attributes.put(attributes, "subnetId", i.subnetId());
        Attributes.put(attributes, "nodeId", tags.get(DesiredState.TAG_NODE));
        Attributes.put(attributes, "specVersion", tags.get(DesiredState.TAG_SPEC_VERSION));
        Attributes.put(attributes, "since", i.launchTime());
        return new ObservedState.Resource(ObservedState.EC2_INSTANCE, Tags.logicalName(tags), i.instanceId(), attributes);
    }
}

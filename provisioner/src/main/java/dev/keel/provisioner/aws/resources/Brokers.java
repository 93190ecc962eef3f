package dev.keel.provisioner.aws.resources;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
import software.amazon.awssdk.services.ec2.model.InstanceStatus;
import software.amazon.awssdk.services.ec2.model.InstanceStatusSummary;
import software.amazon.awssdk.services.ec2.model.SummaryStatus;
import software.amazon.awssdk.services.ec2.model.ResourceType;

/**
 * One EC2 instance per broker, launched from the launch template's default version into its zone's subnet, with
 * its node's WAL volume (EBS WAL) attached. A machine is replaced only on evidence from EC2 itself: gone (terminated
 * or shutting down), or failing its status checks (impaired); a broker whose agent merely stopped reporting is left
 * alone, for the silence may be the control plane's. At most one established broker is replaced at a time; brokers a
 * spec adds launch together. A stopped machine is started; a broker whose security group was made anew is moved to
 * it; surplus brokers (drained by the control plane first) are terminated, highest node first. A node's machine is
 * launched with a client token of the node, the spec and the machine it follows, so two runs of one step, however
 * they interleave, launch at most one machine for a node.
 */
public final class Brokers implements ManagedResource {

    private static final Logger log = LoggerFactory.getLogger(Brokers.class);
    /** The attribute of a machine EC2 reports impaired. */
    static final String IMPAIRED = "impaired";
    private static final List<String> NOT_TERMINATED = List.of("pending", "running", "shutting-down", "stopping",
            "stopped");

    /** How many established brokers one run replaces: the next waits until this one serves. */
    static final int REPLACEMENTS_AT_ONCE = 1;

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        List<Instance> machines = instances(aws.ec2(), desired.instanceId(), NOT_TERMINATED);
        Set<String> impaired = impaired(aws.ec2(), machines);
        return machines.stream().map(i -> resource(i, impaired.contains(i.instanceId()))).toList();
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        List<ResourceChange> changes = new ArrayList<>();
        Optional<String> groupId = observed.idOf(ObservedState.SECURITY_GROUP, desired.securityGroup().logicalName());
        int replacements = 0;
        for (DesiredState.Broker broker : desired.brokers()) {
            ObservedState.Resource live = live(observed, broker.logicalName()).orElse(null);
            boolean established = desired.establishedNodes().contains(broker.nodeId());
            if (live == null) {
                if (established && replacements++ >= REPLACEMENTS_AT_ONCE) {
                    continue;
                }
                changes.add(new ResourceChange(Action.CREATE, ObservedState.EC2_INSTANCE, broker.logicalName(), null,
                        (established ? "its machine is gone: a new one takes over node " : "node ")
                                + broker.nodeId() + " in " + broker.availabilityZone() + " (" + broker.subnetId() + ")"));
                continue;
            }
            if ("true".equals(live.attribute(IMPAIRED))) {
                if (replacements++ < REPLACEMENTS_AT_ONCE) {
                    changes.add(new ResourceChange(Action.REPLACE, ObservedState.EC2_INSTANCE, broker.logicalName(),
                            live.id(), "EC2 reports its status checks impaired: a new instance takes over node "
                            + broker.nodeId()));
                }
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
        List<String> launching = changes.stream().filter(c -> c.action() == Action.CREATE || c.action() == Action.REPLACE)
                .map(ResourceChange::logicalName).toList();
        Map<String, String> tokens = launchTokens(ctx, launching, replaced);
        // A node whose replacement waits for an earlier one to serve has no machine to wait for.
        Set<String> serving = ctx.desired().brokers().stream().map(DesiredState.Broker::logicalName)
                .filter(name -> launching.contains(name) || live(ctx.observed(), name).isPresent())
                .collect(Collectors.toSet());
        // The impaired machine goes first: its node's WAL volume moves to the new one.
        terminate(ctx, replaced);
        launch(ctx, tokens);
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
        awaitRunning(ctx, serving);
        attachWalVolumes(ctx, serving);
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        terminate(ctx, deletes.stream().map(ResourceChange::id).toList());
    }

    /**
     * The client token each of {@code logicalNames} is launched with: of its node, the spec, and the machine the new one
     * follows, the newest of the node's machines that are gone or being {@code replaced} (none for a node's first).
     * Read before anything is launched, and of machines that can no longer change that way, it is the same for every
     * run that decides to launch the node: a second run launching it gets the first run's machine back from EC2.
     */
    private static Map<String, String> launchTokens(StepContext ctx, List<String> logicalNames, List<String> replaced) {
        if (logicalNames.isEmpty()) {
            return Map.of();
        }
        // Terminated machines count too: EC2 shows them for a while after they are gone.
        Map<String, Instance> predecessors = new HashMap<>();
        for (Instance machine : instances(ctx.aws().ec2(), ctx.desired().instanceId(), List.of())) {
            String name = Tags.logicalName(Tags.ofEc2(machine.tags()));
            boolean gone = !alive(machine.state().nameAsString()) || replaced.contains(machine.instanceId());
            if (gone && logicalNames.contains(name)) {
                predecessors.merge(name, machine, (a, b) -> a.launchTime().isAfter(b.launchTime()) ? a : b);
            }
        }
        Map<String, String> tokens = new LinkedHashMap<>();
        for (DesiredState.Broker broker : ctx.desired().brokers()) {
            if (logicalNames.contains(broker.logicalName())) {
                Instance predecessor = predecessors.get(broker.logicalName());
                tokens.put(broker.logicalName(), predecessor == null ? broker.clientToken()
                        : broker.clientToken() + "-" + DesiredState.shortHash(predecessor.instanceId()));
            }
        }
        return tokens;
    }

    /** Launches the brokers {@code tokens} names, each with its client token. */
    private void launch(StepContext ctx, Map<String, String> tokens) {
        if (tokens.isEmpty()) {
            return;
        }
        DesiredState desired = ctx.desired();
        String templateId = ctx.observed().idOf(ObservedState.LAUNCH_TEMPLATE, desired.launchTemplate().logicalName())
                .orElseThrow(() -> new ProvisioningException("NO_LAUNCH_TEMPLATE", "The launch template must exist "
                        + "before brokers launch; run create-launch-template first.", true));
        String groupId = ctx.observed().idOf(ObservedState.SECURITY_GROUP, desired.securityGroup().logicalName())
                .orElseThrow(() -> new ProvisioningException("NO_SECURITY_GROUP", "The security group must exist "
                        + "before brokers launch; run create-security-group first.", true));
        for (DesiredState.Broker broker : desired.brokers()) {
            String token = tokens.get(broker.logicalName());
            if (token == null) {
                continue;
            }
            var tags = desired.brokerTags(broker.nodeId(), broker.logicalName());
            var rootTags = desired.tags("root-volume-" + broker.nodeId());
            AwsCalls.run("ec2:RunInstances", () -> ctx.aws().ec2().runInstances(b -> b
                    .launchTemplate(t -> t.launchTemplateId(templateId).version("$Default"))
                    // The template names the group too; said again here, so no EC2 implementation can miss it.
                    .minCount(1).maxCount(1).subnetId(broker.subnetId()).securityGroupIds(groupId).clientToken(token)
                    .tagSpecifications(Tags.ec2(ResourceType.INSTANCE, tags), Tags.ec2(ResourceType.VOLUME, rootTags))));
        }
    }

    /** Waits until the brokers {@code names} run with private addresses. */
    private void awaitRunning(StepContext ctx, Set<String> names) {
        if (running(ctx, names)) {
            return;
        }
        Instant since = ctx.observed().ofType(ObservedState.EC2_INSTANCE).stream()
                .filter(r -> !"running".equals(r.attribute("state"))).map(StepContext::instant)
                .filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
        ctx.await(ObservedState.EC2_INSTANCE, "brokers to be running with private addresses", since, () -> {
            refresh(ctx);
            return running(ctx, names);
        });
    }

    private static boolean running(StepContext ctx, Set<String> names) {
        return names.stream().allMatch(name -> live(ctx.observed(), name)
                .filter(r -> "running".equals(r.attribute("state")) && r.attribute("privateIp") != null)
                .isPresent());
    }

    /**
     * Attaches the WAL volume of each of the brokers {@code brokerNames} to its running machine where it is not
     * attached already, once a machine that held it before (one just replaced) has let it go.
     */
    private void attachWalVolumes(StepContext ctx, Set<String> brokerNames) {
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
            if (!brokerNames.contains(DesiredState.brokerName(wal.nodeId()))) {
                continue;
            }
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
        return alive(instance.attribute("state"));
    }

    private static boolean alive(String state) {
        return !"terminated".equals(state) && !"shutting-down".equals(state);
    }

    /**
     * Of {@code machines}, those whose instance or system status checks EC2 reports impaired. A role that may not read
     * instance statuses (an onboarding stack from before it could) gives no such evidence: machines are then replaced
     * only once they are gone.
     */
    private static Set<String> impaired(Ec2Client ec2, List<Instance> machines) {
        List<String> ids = machines.stream().filter(i -> alive(i.state().nameAsString())).map(Instance::instanceId)
                .toList();
        if (ids.isEmpty()) {
            return Set.of();
        }
        try {
            return ec2.describeInstanceStatusPaginator(b -> b.instanceIds(ids).includeAllInstances(true))
                    .instanceStatuses().stream()
                    .filter(s -> impaired(s.instanceStatus()) || impaired(s.systemStatus()))
                    .map(InstanceStatus::instanceId).collect(Collectors.toSet());
        } catch (SdkException e) {
            ProvisioningException classified = AwsCalls.classify("ec2:DescribeInstanceStatus", e);
            if (!AwsCalls.ACCESS_DENIED.equals(classified.code())) {
                throw classified;
            }
            log.warn("Instance statuses of {} cannot be read, so no machine is taken for impaired: {}", ids,
                    classified.getMessage());
            return Set.of();
        }
    }

    private static boolean impaired(InstanceStatusSummary summary) {
        return summary != null && summary.status() == SummaryStatus.IMPAIRED;
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

    private static ObservedState.Resource resource(Instance i, boolean impaired) {
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
        Attributes.put(attributes, IMPAIRED, impaired ? "true" : null);
        return new ObservedState.Resource(ObservedState.EC2_INSTANCE, Tags.logicalName(tags), i.instanceId(), attributes);
    }
}

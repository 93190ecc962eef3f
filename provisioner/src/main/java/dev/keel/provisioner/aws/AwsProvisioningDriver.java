package dev.keel.provisioner.aws;

import static dev.keel.provisioner.aws.ObservedState.*;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.keel.provisioner.AccountNetwork;
import dev.keel.provisioner.AccountVerification;
import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.NetworkLocks;
import dev.keel.provisioner.NetworkPathGap;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.StepRun;
import dev.keel.provisioner.WalType;
import dev.keel.provisioner.aws.resources.BrokerRole;
import dev.keel.provisioner.aws.resources.Brokers;
import dev.keel.provisioner.aws.resources.Buckets;
import dev.keel.provisioner.aws.resources.LaunchTemplate;
import dev.keel.provisioner.aws.resources.ManagedResource;
import dev.keel.provisioner.aws.resources.S3GatewayEndpoint;
import dev.keel.provisioner.aws.resources.SecurityGroup;
import dev.keel.provisioner.aws.resources.StepContext;
import dev.keel.provisioner.aws.resources.WalFileSystems;
import dev.keel.provisioner.aws.resources.WalVolumes;

/**
 * Converges an instance's resources in the customer's AWS account. The instance's resources are an ordered list,
 * each depending only on those before it, and the list is the one source of a change's steps: a create, update or
 * repair converges each resource in order (an update then removes surplus in reverse order), a delete removes each
 * in reverse order and verifies nothing is left. A step observes its resource, diffs it against the
 * {@link DesiredState} and applies exactly that diff; a plan is the same diffs concatenated. Everything is found by
 * tags and deterministic names and created with client tokens where AWS has them, so applying a step twice leaves
 * the same result as once. The steps of what the instances of a VPC share take the VPC's lock ({@link NetworkLocks}).
 */
public class AwsProvisioningDriver implements ProvisioningDriver, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AwsProvisioningDriver.class);

    /** The last step of a create, update or repair: every broker runs and has an address clients can reach. */
    public static final String PUBLISH_ENDPOINT = "publish-endpoint";
    /** The last step of a delete: nothing tagged with the instance is left in any service. */
    public static final String VERIFY_NOTHING_LEFT = "verify-nothing-left";

    /**
     * The instance's resources, each depending only on those before it: what types of {@link ObservedState} each
     * owns (dependants first) and reads of those before it, which WAL types have it, and the names of its steps.
     */
    private static final List<Entry> RESOURCES = List.of(
            // First, so an instance whose subnets cannot reach S3 or the EC2 API is refused before anything is made.
            Entry.of(new S3GatewayEndpoint(), "prepare-network-paths", "delete-s3-gateway-endpoint", S3_GATEWAY_ENDPOINT,
                    SUBNET_ROUTE),
            Entry.of(new Buckets(), "create-buckets", "delete-buckets", S3_BUCKET),
            Entry.of(new BrokerRole(), "create-broker-role", "delete-broker-role", IAM_INSTANCE_PROFILE, IAM_ROLE),
            Entry.of(new SecurityGroup(), "create-security-group", "delete-security-group", SECURITY_GROUP),
            Entry.of(new WalFileSystems(), "create-wal-file-systems", "delete-wal-file-systems", FSX_VOLUME, FSX_SVM,
                            FSX_FILE_SYSTEM).reading(SECURITY_GROUP).onlyFor(WalType.FSWAL)
                    .updatedBy("resize-wal-file-systems").surplusRemovedBy("remove-surplus-wal-file-systems"),
            Entry.of(new LaunchTemplate(), "create-launch-template", "delete-launch-template", LAUNCH_TEMPLATE)
                    .reading(SECURITY_GROUP, FSX_SVM, FSX_VOLUME),
            Entry.of(new WalVolumes(), "create-wal-volumes", "delete-wal-volumes", EBS_VOLUME).onlyFor(WalType.EBS)
                    .surplusRemovedBy("delete-surplus-wal-volumes"),
            Entry.of(new Brokers(), "launch-brokers", TERMINATE_BROKERS, EC2_INSTANCE)
                    .reading(SECURITY_GROUP, LAUNCH_TEMPLATE, EBS_VOLUME).surplusRemovedBy(RETIRE_SURPLUS_BROKERS));
    private static final Entry BROKERS = RESOURCES.getLast();

    /**
     * A resource in the list: the types it owns, dependants first (the order a delete removes them in); the types of
     * resources before it that its diff and apply read; the WAL types whose instances have it (a delete removes it
     * whatever the WAL); and its steps: converging it in a create or repair, in an update, removing all of it in a
     * delete, and removing what an update left surplus (null: it never has surplus).
     */
    private record Entry(ManagedResource resource, List<String> types, List<String> inputs, Set<WalType> walTypes,
                         String createStep, String updateStep, String deleteStep, String surplusStep) {

        static Entry of(ManagedResource resource, String createStep, String deleteStep, String... types) {
            return new Entry(resource, List.of(types), List.of(), EnumSet.allOf(WalType.class), createStep, createStep,
                    deleteStep, null);
        }

        Entry reading(String... inputTypes) {
            return new Entry(resource, types, List.of(inputTypes), walTypes, createStep, updateStep, deleteStep,
                    surplusStep);
        }

        Entry onlyFor(WalType walType) {
            return new Entry(resource, types, inputs, EnumSet.of(walType), createStep, updateStep, deleteStep,
                    surplusStep);
        }

        Entry updatedBy(String step) {
            return new Entry(resource, types, inputs, walTypes, createStep, step, deleteStep, surplusStep);
        }

        Entry surplusRemovedBy(String step) {
            return new Entry(resource, types, inputs, walTypes, createStep, updateStep, deleteStep, step);
        }

        String step(ChangeKind kind) {
            return switch (kind) {
                case CREATE, REPAIR -> createStep;
                case UPDATE -> updateStep;
                case DELETE -> deleteStep;
            };
        }
    }

    /** What a step does to its resource. */
    private enum Phase { CONVERGE, REMOVE_SURPLUS, DELETE }

    private record Step(String name, Entry entry, Phase phase) {
    }

    /** What a step changed, and the inventory it observed afterwards. */
    public record AppliedStep(List<ResourceChange> changes, Inventory inventory) {
    }

    private final AwsProvisionerSettings settings;
    private final AwsClients clients;
    private final RoleVerifier verifier;
    private final NetworkLocks networkLocks;
    private final LongAdder waitedNanos = new LongAdder();

    /** A driver that is the only one to change the VPCs of its targets ({@link NetworkLocks#inThisProcess()}). */
    public AwsProvisioningDriver(AwsProvisionerSettings settings) {
        this(settings, NetworkLocks.inThisProcess());
    }

    public AwsProvisioningDriver(AwsProvisionerSettings settings, NetworkLocks networkLocks) {
        this.settings = settings;
        this.clients = new AwsClients(settings);
        this.verifier = new RoleVerifier(clients);
        this.networkLocks = networkLocks;
    }

    @Override
    public List<String> steps(ChangeKind kind, ProvisioningTarget target) {
        List<String> names = new ArrayList<>(steps(kind, target.walType(), fsxInScope(target.walType()),
                target.s3GatewayEndpoint()).stream().map(Step::name).toList());
        names.add(kind == ChangeKind.DELETE ? VERIFY_NOTHING_LEFT : PUBLISH_ENDPOINT);
        return List.copyOf(names);
    }

    /**
     * The resource steps of a change: converge each resource the WAL type has, in order (an update then removes
     * surplus, dependants first); or, for a delete, remove every resource in reverse order, whatever the WAL type.
     * The network paths are checked unless the spec leaves the VPC's routing alone; Keel's S3 gateway endpoint is
     * deleted with the VPC's last Keel instance whatever its spec says, as the instance that made it may have gone first.
     */
    private static List<Step> steps(ChangeKind kind, WalType walType, boolean fsxInScope, S3GatewayEndpointMode s3) {
        List<Step> steps = new ArrayList<>();
        if (kind == ChangeKind.DELETE) {
            RESOURCES.reversed().stream().filter(r -> fsxInScope || !(r.resource() instanceof WalFileSystems))
                    .forEach(r -> steps.add(new Step(r.step(kind), r, Phase.DELETE)));
            return steps;
        }
        List<Entry> has = RESOURCES.stream().filter(r -> r.walTypes().contains(walType))
                .filter(r -> s3 != S3GatewayEndpointMode.NONE || !(r.resource() instanceof S3GatewayEndpoint)).toList();
        has.forEach(r -> steps.add(new Step(r.step(kind), r, Phase.CONVERGE)));
        if (kind == ChangeKind.UPDATE) {
            has.reversed().stream().filter(r -> r.surplusStep() != null)
                    .forEach(r -> steps.add(new Step(r.surplusStep(), r, Phase.REMOVE_SURPLUS)));
        }
        return steps;
    }

    @Override
    public AccountVerification verify(ProvisioningTarget.Account account, String region) {
        return verifier.verify(account, region);
    }

    @Override
    public List<AccountNetwork> networks(ProvisioningTarget.Account account, String region) {
        return Networks.list(clients.forAccount(account, region, "keel-networks"));
    }

    @Override
    public Inventory apply(String step, ProvisioningTarget target, StepRun run) {
        return applyStep(step, target, run).inventory();
    }

    /** Applies one step to its end in the calling thread; returns the changes it made and the inventory afterwards. */
    public AppliedStep applyStep(String step, ProvisioningTarget target) {
        return applyStep(step, target, StepRun.INLINE);
    }

    /**
     * Applies one step in {@code run}, every call it makes fenced by it; returns the changes it made (exactly its
     * resource's diff) and the inventory afterwards.
     */
    public AppliedStep applyStep(String step, ProvisioningTarget target, StepRun run) {
        long started = System.nanoTime();
        log.info("instance={} step={} applying", target.instanceId(), step);
        AppliedStep applied = StepFence.during(run, () -> applyFenced(step, target, run));
        log.info("instance={} step={} done in {} ms: {} change(s)", target.instanceId(), step,
                (System.nanoTime() - started) / 1_000_000, applied.changes().size());
        return applied;
    }

    private AppliedStep applyFenced(String step, ProvisioningTarget target, StepRun run) {
        return switch (step) {
            case VERIFY_NOTHING_LEFT -> verifyNothingLeft(target);
            case PUBLISH_ENDPOINT -> run(new Step(step, BROKERS, Phase.CONVERGE), target, BROKERS.types(), false, run);
            default -> {
                Step found = find(step, target);
                List<String> types = new ArrayList<>(found.entry().types());
                if (found.phase() != Phase.DELETE) {
                    // What the instance's WAL type has no part in, it has none of.
                    found.entry().inputs().stream().filter(type -> RESOURCES.stream().anyMatch(r -> r.types().contains(type)
                            && r.walTypes().contains(target.walType()))).forEach(types::add);
                }
                // The endpoint is the VPC's: observed and changed under its lock, on the records as they are then.
                yield found.entry().resource() instanceof S3GatewayEndpoint
                        ? networkLocks.holding(target, run, held -> run(found, held, types, true, run))
                        : run(found, target, types, true, run);
            }
        };
    }

    private Step find(String name, ProvisioningTarget target) {
        for (ChangeKind kind : ChangeKind.values()) {
            for (Step step : steps(kind, target.walType(), true, S3GatewayEndpointMode.CREATE)) {
                if (step.name().equals(name)) {
                    return step;
                }
            }
        }
        throw new IllegalArgumentException("Unknown step " + name);
    }

    /**
     * Observes {@code types} (the step's resource with what it reads of those before it), diffs, applies the diff
     * (or, publishing the endpoint, nothing but the wait for the brokers), and returns what changed and the inventory.
     */
    private AppliedStep run(Step step, ProvisioningTarget target, List<String> types, boolean change, StepRun run) {
        AwsClients.Customer aws = clients.forTarget(target);
        ManagedResource resource = step.entry().resource();
        ObservedState observed = new ObservedState(observe(aws, target, types));
        DesiredState desired = desired(target, boot(target, aws, observed,
                step.phase() != Phase.DELETE && types.contains(LAUNCH_TEMPLATE)));
        List<ResourceChange> changes = change ? changes(step, desired, observed) : List.of();
        StepContext ctx = new StepContext(aws, desired, step.entry().types(), observed, t -> observe(aws, target, t),
                settings, waitedNanos, run);
        if (step.phase() == Phase.CONVERGE) {
            resource.apply(changes, ctx);
        } else if (!changes.isEmpty()) {
            resource.remove(changes, ctx);
        }
        return new AppliedStep(changes, merge(target.observed(), ctx.observed(), types));
    }

    /** A step's share of a plan, and exactly what it applies. */
    private static List<ResourceChange> changes(Step step, DesiredState desired, ObservedState observed) {
        return switch (step.phase()) {
            case CONVERGE -> step.entry().resource().diff(desired, observed).stream()
                    .filter(c -> c.action() != Action.DELETE).toList();
            case REMOVE_SURPLUS -> step.entry().resource().diff(desired, observed).stream()
                    .filter(c -> c.action() == Action.DELETE).toList();
            case DELETE -> {
                List<ResourceChange> all = new ArrayList<>();
                for (String type : step.entry().types()) {
                    observed.ofType(type).stream().filter(step.entry().resource()::ownedByInstance)
                            .sorted(Comparator.comparing(ObservedState.Resource::logicalName))
                            .forEach(r -> all.add(step.entry().resource().deleting(desired, new ResourceChange(
                                    Action.DELETE, type, r.logicalName(), r.id(), "the instance is being deleted"))));
                }
                yield all;
            }
        };
    }

    /**
     * Nothing is left but, when the delete keeps the instance's data, its data bucket tagged as kept: the inventory
     * then records it until it is deleted.
     */
    private AppliedStep verifyNothingLeft(ProvisioningTarget target) {
        Map<Boolean, List<ObservedState.Resource>> kept = sweep(target).stream().collect(Collectors.partitioningBy(
                r -> target.dataRetainedUntil() != null && r.attribute(Buckets.RETAINED_UNTIL) != null));
        if (!kept.get(false).isEmpty()) {
            throw new ProvisioningException("RESOURCES_LEFT", "Still tagged with instance " + target.instanceId() + ": "
                    + kept.get(false).stream().map(r -> r.type() + " " + r.id()).collect(Collectors.joining(", ")), true);
        }
        return new AppliedStep(List.of(), inventory(new ObservedState(kept.get(true))));
    }

    @Override
    public void deleteRetainedData(ProvisioningTarget target) {
        AwsClients.Customer aws = clients.forTarget(target);
        List<String> types = RESOURCES.getFirst().types();
        new Buckets().deleteRetained(new StepContext(aws, desired(target), types, ObservedState.NOTHING,
                t -> observe(aws, target, t), settings, waitedNanos, StepRun.INLINE));
    }

    /** Everything the instance has in the customer's account, found by tags and deterministic names. Read-only. */
    public ObservedState observe(ProvisioningTarget target) {
        return observe(target, false);
    }

    /** {@code deleting}: what a delete removes, which is also Keel's S3 gateway endpoint of a spec that said NONE. */
    private ObservedState observe(ProvisioningTarget target, boolean deleting) {
        AwsClients.Customer aws = clients.forTarget(target);
        DesiredState desired = desired(target);
        return new ObservedState(RESOURCES.stream().filter(r -> inScope(r, target, deleting))
                .flatMap(r -> r.resource().observe(aws, desired).stream()).toList());
    }

    /** The resources of {@code types}, observed by the resources that own them. */
    private List<ObservedState.Resource> observe(AwsClients.Customer aws, ProvisioningTarget target,
                                                 Collection<String> types) {
        DesiredState desired = desired(target);
        // The step's types decide: of a spec that leaves routing alone, only its delete has a network step.
        return RESOURCES.stream().filter(r -> inScope(r, target, true) && r.types().stream().anyMatch(types::contains))
                .flatMap(r -> r.resource().observe(aws, desired).stream())
                .filter(r -> types.contains(r.type())).toList();
    }

    /**
     * Every resource still tagged with (or named after) the instance: EC2 instances not terminated,
     * EBS volumes, security groups, launch templates, the IAM role and instance profile, the S3
     * buckets and FSx file systems, SVMs and volumes. Empty after a completed delete.
     */
    public List<ObservedState.Resource> sweep(ProvisioningTarget target) {
        return observe(target, true).resources().stream().filter(r -> RESOURCES.stream()
                .filter(e -> e.types().contains(r.type())).allMatch(e -> e.resource().ownedByInstance(r))).toList();
    }

    /** What applying a change of {@code kind} would do, from a fresh read-only observation. */
    @Override
    public List<ResourceChange> plan(ChangeKind kind, ProvisioningTarget target, boolean observe) {
        if (!observe) {
            return plan(kind, desired(target), ObservedState.NOTHING, fsxInScope(target.walType()));
        }
        ObservedState observed = observe(target, kind == ChangeKind.DELETE);
        BootImage boot = boot(target, clients.forTarget(target), observed, kind != ChangeKind.DELETE);
        return plan(kind, desired(target, boot), observed, fsxInScope(target.walType()));
    }

    /** What applying a change of {@code kind} would do, given an observation: its steps' diffs, concatenated. Pure. */
    public static List<ResourceChange> plan(ChangeKind kind, DesiredState desired, ObservedState observed,
                                            boolean fsxInScope) {
        return steps(kind, desired.walType(), fsxInScope, desired.networkPaths().s3GatewayEndpoint()).stream()
                .flatMap(step -> changes(step, desired, observed).stream()).toList();
    }

    /** Time spent sleeping between polls of AWS lifecycles (instance running, file system available…) since start. */
    public Duration timeWaitingForAws() {
        return Duration.ofNanos(waitedNanos.sum());
    }

    /** The desired state as far as the target says what the brokers boot (as a create's plan does). */
    public DesiredState desired(ProvisioningTarget target) {
        return desired(target, target.boot() != null ? target.boot() : new BootImage(null, null));
    }

    private DesiredState desired(ProvisioningTarget target, BootImage boot) {
        return DesiredState.of(target, DesiredState.Defaults.of(settings), boot);
    }

    /**
     * What the instance's brokers boot: what the target says (a create's plan, resolved when it was validated);
     * else what its launch template already boots, so that AWS publishing a newer AMI is no drift and rolls no
     * broker; else what its create resolved and checked before accepting it, recorded in its inventory, so that the
     * template is made with exactly that, however far AWS has moved the parameter since; else, where the launch
     * template is to be made ({@code resolve}), the region's current Amazon Linux image and the broker version's
     * image (an instance whose create recorded none). Steps that neither make nor read the template need neither.
     */
    private BootImage boot(ProvisioningTarget target, AwsClients.Customer aws, ObservedState observed,
                           boolean resolve) {
        if (target.boot() != null) {
            return target.boot();
        }
        var template = observed.find(LAUNCH_TEMPLATE, DesiredState.LAUNCH_TEMPLATE_NAME);
        if (template.isPresent() && template.get().attribute("imageId") != null
                && template.get().attribute("brokerImage") != null) {
            return new BootImage(template.get().attribute("imageId"), template.get().attribute("brokerImage"));
        }
        if (target.observed() != null && target.observed().boot() != null) {
            return target.observed().boot();
        }
        if (!resolve) {
            return new BootImage(null, null);
        }
        return new BootImage(MachineImages.resolve(aws, target.region()), brokerImage(target.brokerVersion()));
    }

    @Override
    public BootImage bootImage(ProvisioningTarget.Account account, String region, String brokerVersion) {
        String brokerImage = brokerImage(brokerVersion);
        return new BootImage(MachineImages.resolve(clients.forAccount(account, region, "keel-images"), region),
                brokerImage);
    }

    @Override
    public List<NetworkPathGap> networkPathGaps(ProvisioningTarget target) {
        if (target.s3GatewayEndpoint() == S3GatewayEndpointMode.NONE) {
            return List.of();
        }
        DesiredState desired = desired(target);
        return S3GatewayEndpoint.gaps(desired.networkPaths(), new ObservedState(new S3GatewayEndpoint().observe(
                clients.forTarget(target), desired)).ofType(SUBNET_ROUTE));
    }

    private String brokerImage(String brokerVersion) {
        String image = settings.brokerImages().get(brokerVersion);
        if (image == null) {
            throw new ProvisioningException("NO_BROKER_IMAGE", "No Keel broker image is recorded for AutoMQ "
                    + brokerVersion + " (recorded: " + new TreeSet<>(settings.brokerImages().keySet())
                    + "), so its brokers could not boot.", false);
        }
        return image;
    }

    /** The inventory the backend stores: brokers with their private addresses, the other resources by type and id. */
    public static Inventory inventory(ObservedState observed) {
        return merge(Inventory.EMPTY, observed, observed.resources().stream().map(ObservedState.Resource::type)
                .collect(Collectors.toSet()));
    }

    /** {@code previous} with what it said of {@code types} replaced by what {@code fresh} says of them. */
    private static Inventory merge(Inventory previous, ObservedState fresh, Collection<String> types) {
        Inventory before = previous == null ? Inventory.EMPTY : previous;
        Map<String, List<Inventory.CloudResource>> byType = new LinkedHashMap<>();
        before.resources().stream().filter(r -> !types.contains(r.type()))
                .forEach(r -> byType.computeIfAbsent(r.type(), t -> new ArrayList<>()).add(r));
        fresh.resources().stream()
                .filter(r -> types.contains(r.type()) && !r.type().equals(ObservedState.EC2_INSTANCE)
                        && !r.type().equals(ObservedState.ROOT_VOLUME) && !r.type().equals(ObservedState.SUBNET_ROUTE))
                .forEach(r -> byType.computeIfAbsent(r.type(), t -> new ArrayList<>())
                        .add(new Inventory.CloudResource(r.type(), r.id())));
        List<Inventory.CloudResource> resources = byType.values().stream().flatMap(List::stream).toList();
        if (!types.contains(ObservedState.EC2_INSTANCE)) {
            return new Inventory(before.bootstrapServers(), before.brokers(), resources, before.boot());
        }
        List<Inventory.Broker> brokers = fresh.ofType(ObservedState.EC2_INSTANCE).stream()
                .filter(r -> "running".equals(r.attribute("state")) || "pending".equals(r.attribute("state")))
                .filter(r -> r.nodeId() >= 0)
                .sorted(Comparator.comparingInt(ObservedState.Resource::nodeId))
                .map(r -> new Inventory.Broker(r.nodeId(), r.attribute("availabilityZone"),
                        r.attribute("privateIp") == null ? null
                                : r.attribute("privateIp") + ":" + DesiredState.KAFKA_PORT, r.id()))
                .toList();
        List<String> addresses = brokers.stream().map(Inventory.Broker::address).filter(a -> a != null).toList();
        return new Inventory(addresses.isEmpty() ? null : String.join(",", addresses), brokers, resources,
                before.boot());
    }

    private boolean fsxInScope(WalType walType) {
        return walType == WalType.FSWAL || settings.sweepFsxForEveryWal();
    }

    /**
     * Whether the driver looks for {@code resource} at all: FSx only where the account's endpoint has it, the network
     * paths only when the spec does not leave them alone or the instance is being deleted ({@code deleting}: its
     * delete removes Keel's S3 gateway endpoint when it is the VPC's last Keel instance).
     */
    private boolean inScope(Entry entry, ProvisioningTarget target, boolean deleting) {
        return (fsxInScope(target.walType()) || !(entry.resource() instanceof WalFileSystems))
                && (deleting || target.s3GatewayEndpoint() != S3GatewayEndpointMode.NONE
                || !(entry.resource() instanceof S3GatewayEndpoint));
    }

    @Override
    public void close() {
        clients.close();
    }
}

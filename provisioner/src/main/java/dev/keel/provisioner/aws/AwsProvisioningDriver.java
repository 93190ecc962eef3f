package dev.keel.provisioner.aws;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.keel.provisioner.AccountNetwork;
import dev.keel.provisioner.AccountVerification;
import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.WalType;

/**
 * Converges an instance's resources in the customer's AWS account. Every step derives the desired
 * state from the target ({@link DesiredState}), finds what exists by tags and deterministic names,
 * and creates only what is missing (with client tokens where AWS has them, tags at creation), so
 * applying a step twice leaves the same result as once. Delete removes everything the tags find in
 * reverse dependency order and {@link #sweep} verifies nothing is left.
 */
public class AwsProvisioningDriver implements ProvisioningDriver, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AwsProvisioningDriver.class);

    public static final String CREATE_BUCKETS = "create-buckets";
    public static final String CREATE_BROKER_ROLE = "create-broker-role";
    public static final String CREATE_SECURITY_GROUP = "create-security-group";
    public static final String CREATE_WAL_FILE_SYSTEMS = "create-wal-file-systems";
    public static final String RESIZE_WAL_FILE_SYSTEMS = "resize-wal-file-systems";
    public static final String CREATE_LAUNCH_TEMPLATE = "create-launch-template";
    public static final String LAUNCH_BROKERS = "launch-brokers";
    public static final String ATTACH_WAL_VOLUMES = "attach-wal-volumes";
    public static final String PUBLISH_ENDPOINT = "publish-endpoint";
    public static final String TERMINATE_BROKERS = "terminate-brokers";
    public static final String DELETE_WAL_VOLUMES = "delete-wal-volumes";
    public static final String DELETE_LAUNCH_TEMPLATE = "delete-launch-template";
    public static final String DELETE_WAL_FILE_SYSTEMS = "delete-wal-file-systems";
    public static final String DELETE_SECURITY_GROUP = "delete-security-group";
    public static final String DELETE_BROKER_ROLE = "delete-broker-role";
    public static final String DELETE_BUCKETS = "delete-buckets";
    public static final String VERIFY_NOTHING_LEFT = "verify-nothing-left";

    private final AwsProvisionerSettings settings;
    private final AwsClients clients;
    private final RoleVerifier verifier;
    private final LongAdder waitedNanos = new LongAdder();

    public AwsProvisioningDriver(AwsProvisionerSettings settings) {
        this.settings = settings;
        this.clients = new AwsClients(settings);
        this.verifier = new RoleVerifier(clients);
    }

    @Override
    public List<String> steps(ChangeKind kind, ProvisioningTarget target) {
        boolean fsx = target.walType() == WalType.FSWAL;
        boolean ebs = target.walType() == WalType.EBS;
        List<String> steps = new ArrayList<>();
        switch (kind) {
            case CREATE, UPDATE, REPAIR -> {
                steps.addAll(List.of(CREATE_BUCKETS, CREATE_BROKER_ROLE, CREATE_SECURITY_GROUP));
                if (fsx) {
                    steps.add(kind == ChangeKind.UPDATE ? RESIZE_WAL_FILE_SYSTEMS : CREATE_WAL_FILE_SYSTEMS);
                }
                steps.addAll(List.of(CREATE_LAUNCH_TEMPLATE, LAUNCH_BROKERS));
                if (ebs) {
                    steps.add(ATTACH_WAL_VOLUMES);
                }
                if (kind == ChangeKind.UPDATE) {
                    steps.add(RETIRE_SURPLUS_BROKERS);
                }
                steps.add(PUBLISH_ENDPOINT);
            }
            case DELETE -> {
                steps.addAll(List.of(TERMINATE_BROKERS, DELETE_WAL_VOLUMES, DELETE_LAUNCH_TEMPLATE));
                if (fsxInScope(target)) {
                    steps.add(DELETE_WAL_FILE_SYSTEMS);
                }
                steps.addAll(List.of(DELETE_SECURITY_GROUP, DELETE_BROKER_ROLE, DELETE_BUCKETS, VERIFY_NOTHING_LEFT));
            }
        }
        return List.copyOf(steps);
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
    public Inventory apply(String step, ProvisioningTarget target) {
        StepContext ctx = context(target);
        long started = System.nanoTime();
        log.info("instance={} step={} applying", target.instanceId(), step);
        switch (step) {
            case CREATE_BUCKETS -> S3Ops.ensureBuckets(ctx);
            case CREATE_BROKER_ROLE -> IamOps.ensureRole(ctx);
            case CREATE_SECURITY_GROUP -> Ec2Ops.ensureSecurityGroup(ctx);
            case CREATE_WAL_FILE_SYSTEMS -> FsxOps.converge(ctx, false);
            case RESIZE_WAL_FILE_SYSTEMS -> FsxOps.converge(ctx, true);
            case CREATE_LAUNCH_TEMPLATE -> Ec2Ops.ensureLaunchTemplate(ctx);
            case LAUNCH_BROKERS -> Ec2Ops.launchBrokers(ctx);
            case ATTACH_WAL_VOLUMES -> Ec2Ops.attachWalVolumes(ctx);
            case RETIRE_SURPLUS_BROKERS -> Ec2Ops.retireSurplusBrokers(ctx);
            case PUBLISH_ENDPOINT -> Ec2Ops.awaitBrokersRunning(ctx);
            case TERMINATE_BROKERS -> Ec2Ops.terminateAll(ctx);
            case DELETE_WAL_VOLUMES -> Ec2Ops.deleteAllVolumes(ctx);
            case DELETE_LAUNCH_TEMPLATE -> Ec2Ops.deleteLaunchTemplates(ctx);
            case DELETE_WAL_FILE_SYSTEMS -> FsxOps.deleteAll(ctx);
            case DELETE_SECURITY_GROUP -> Ec2Ops.deleteSecurityGroups(ctx);
            case DELETE_BROKER_ROLE -> IamOps.deleteRole(ctx);
            case DELETE_BUCKETS -> S3Ops.deleteBuckets(ctx);
            case VERIFY_NOTHING_LEFT -> {
                List<ObservedState.Resource> left = sweep(target);
                if (!left.isEmpty()) {
                    throw new ProvisioningException("RESOURCES_LEFT", "Still tagged with instance "
                            + target.instanceId() + ": " + left.stream().map(r -> r.type() + " " + r.id())
                            .collect(Collectors.joining(", ")), true);
                }
                return Inventory.EMPTY;
            }
            default -> throw new IllegalArgumentException("Unknown step " + step);
        }
        Inventory inventory = inventory(observe(target));
        log.info("instance={} step={} done in {} ms", target.instanceId(), step,
                (System.nanoTime() - started) / 1_000_000);
        return inventory;
    }

    /** Everything the instance has in the customer's account, found by tags and deterministic names. Read-only. */
    public ObservedState observe(ProvisioningTarget target) {
        return Observer.observe(clients.forTarget(target), target.instanceId(), fsxInScope(target));
    }

    /**
     * Every resource still tagged with (or named after) the instance: EC2 instances not terminated,
     * EBS volumes, security groups, launch templates, the IAM role and instance profile, the S3
     * buckets and FSx file systems, SVMs and volumes. Empty after a completed delete.
     */
    public List<ObservedState.Resource> sweep(ProvisioningTarget target) {
        return observe(target).resources();
    }

    /** What applying a change of {@code kind} would do, from a fresh read-only observation. */
    @Override
    public List<ResourceChange> plan(ChangeKind kind, ProvisioningTarget target, boolean observe) {
        return plan(kind, target, observe ? observe(target) : new ObservedState(List.of()));
    }

    /** What applying a change of {@code kind} would do, given an observation. Pure. */
    public List<ResourceChange> plan(ChangeKind kind, ProvisioningTarget target, ObservedState observed) {
        return Planner.plan(kind, DesiredState.of(target, DesiredState.Defaults.of(settings)), observed,
                target.impairedBrokers());
    }

    /** Time spent sleeping between polls of AWS lifecycles (instance running, file system available…) since start. */
    public Duration timeWaitingForAws() {
        return Duration.ofNanos(waitedNanos.sum());
    }

    public DesiredState desired(ProvisioningTarget target) {
        return DesiredState.of(target, DesiredState.Defaults.of(settings));
    }

    /** The inventory the backend stores: brokers with their private addresses, the other resources by type and id. */
    public static Inventory inventory(ObservedState observed) {
        List<Inventory.Broker> brokers = observed.ofType(ObservedState.EC2_INSTANCE).stream()
                .filter(r -> "running".equals(r.attribute("state")) || "pending".equals(r.attribute("state")))
                .filter(r -> Planner.nodeId(r) >= 0)
                .sorted(Comparator.comparingInt(Planner::nodeId))
                .map(r -> new Inventory.Broker(Planner.nodeId(r), r.attribute("availabilityZone"),
                        r.attribute("privateIp") == null ? null
                                : r.attribute("privateIp") + ":" + DesiredState.KAFKA_PORT, r.id()))
                .toList();
        List<Inventory.CloudResource> resources = observed.resources().stream()
                .filter(r -> !r.type().equals(ObservedState.EC2_INSTANCE) && !r.type().equals("ebs-root-volume"))
                .map(r -> new Inventory.CloudResource(r.type(), r.id()))
                .toList();
        List<String> addresses = brokers.stream().map(Inventory.Broker::address)
                .filter(a -> a != null).toList();
        return new Inventory(addresses.isEmpty() ? null : String.join(",", addresses), brokers, resources);
    }

    private boolean fsxInScope(ProvisioningTarget target) {
        return target.walType() == WalType.FSWAL || settings.sweepFsxForEveryWal();
    }

    private StepContext context(ProvisioningTarget target) {
        return new StepContext(clients.forTarget(target), target, desired(target), settings, waitedNanos);
    }

    @Override
    public void close() {
        clients.close();
    }
}

package dev.keel.controlplane.provisioning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
import dev.keel.provisioner.Inventory.Broker;
import dev.keel.provisioner.Inventory.CloudResource;

/**
 * A driver that touches no cloud at all: it walks the same steps a real driver would, takes
 * {@code keel.provisioning.no-cloud.step-delay} per step, and reports an inventory of names under
 * the reserved {@code .invalid} domain so nobody mistakes it for a real endpoint. It exists so the
 * operation engine can be run and tested end to end before the AWS driver is wired in.
 * <p>
 * Failure paths are reachable the way payment sandboxes make them reachable, through the input: an
 * instance named {@code fail-at-<step>-…} fails permanently at that step, and a role named
 * {@code unverifiable…} fails verification for want of {@code ec2:RunInstances}.
 */
public class NoCloudProvisioningDriver implements ProvisioningDriver {

    private static final Logger log = LoggerFactory.getLogger(NoCloudProvisioningDriver.class);
    private static final String DOMAIN = ".nocloud.invalid";

    private static final String FAILURE_TRIGGER = "fail-at-";
    private static final String UNVERIFIABLE_ROLE = ":role/unverifiable";

    private final Duration stepDelay;

    public NoCloudProvisioningDriver(Duration stepDelay) {
        this.stepDelay = stepDelay;
    }

    @Override
    public List<String> steps(ChangeKind kind, ProvisioningTarget target) {
        boolean fsx = target.walType() == WalType.FSWAL;
        List<String> steps = new ArrayList<>();
        switch (kind) {
            case CREATE -> {
                steps.add("create-buckets");
                if (fsx) {
                    steps.add("create-wal-file-systems");
                }
                steps.addAll(List.of("create-broker-role", "create-security-group", "launch-brokers", "publish-endpoint"));
            }
            case UPDATE -> {
                if (fsx) {
                    steps.add("resize-wal-file-systems");
                }
                steps.addAll(List.of("launch-brokers", RETIRE_SURPLUS_BROKERS, "publish-endpoint"));
            }
            case REPAIR -> steps.addAll(List.of("launch-brokers", "publish-endpoint"));
            case DELETE -> {
                steps.addAll(List.of("terminate-brokers", "delete-security-group", "delete-broker-role"));
                if (fsx) {
                    steps.add("delete-wal-file-systems");
                }
                steps.addAll(List.of("delete-buckets", "verify-nothing-left"));
            }
        }
        return steps;
    }

    @Override
    public AccountVerification verify(ProvisioningTarget.Account account, String region) {
        return account.roleArn().contains(UNVERIFIABLE_ROLE)
                ? AccountVerification.missing(List.of("ec2:RunInstances"))
                : AccountVerification.allowed();
    }

    /** One VPC with a subnet in each of the region's first three zones, with ids that say where they come from. */
    @Override
    public List<AccountNetwork> networks(ProvisioningTarget.Account account, String region) {
        List<AccountNetwork.Subnet> subnets = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            char zone = (char) ('a' + i);
            subnets.add(new AccountNetwork.Subnet("subnet-nocloud" + zone, region + zone, "10.0." + i + ".0/24",
                    "no-cloud " + region + zone));
        }
        return List.of(new AccountNetwork("vpc-nocloud", "no-cloud", "10.0.0.0/16", false, subnets));
    }

    @Override
    public Inventory apply(String step, ProvisioningTarget target) {
        log.info("no-cloud driver: {} for instance {}", step, target.instanceId());
        pause();
        if (target.instanceName().startsWith(FAILURE_TRIGGER + step + "-")) {
            throw new ProvisioningException("NO_CLOUD_REQUESTED_FAILURE",
                    "Step " + step + " failed because the instance name asks the no-cloud driver to fail it.", false);
        }
        return simulate(step, target);
    }

    private Inventory simulate(String step, ProvisioningTarget target) {
        Inventory seen = target.observed() == null ? Inventory.EMPTY : target.observed();
        String base = target.instanceName() + "-" + target.instanceId().toString().substring(0, 8);
        return switch (step) {
            case "create-buckets" -> with(seen, new CloudResource("s3-bucket", base + "-data"),
                    new CloudResource("s3-bucket", base + "-ops"));
            case "create-wal-file-systems", "resize-wal-file-systems" -> withFileSystems(seen, base, target.fsxCount());
            case "create-broker-role" -> with(seen, new CloudResource("iam-role", base + "-broker"));
            case "create-security-group" -> with(seen, new CloudResource("security-group", base + "-brokers"));
            case "launch-brokers", RETIRE_SURPLUS_BROKERS -> withBrokers(seen, base, target);
            case "publish-endpoint" -> new Inventory(String.join(",", seen.brokers().stream().map(Broker::address).toList()),
                    seen.brokers(), seen.resources());
            case "terminate-brokers" -> new Inventory(null, List.of(), seen.resources());
            case "delete-security-group" -> without(seen, "security-group");
            case "delete-broker-role" -> without(seen, "iam-role");
            case "delete-wal-file-systems" -> without(seen, "fsx-file-system");
            case "delete-buckets" -> without(seen, "s3-bucket");
            case "verify-nothing-left" -> {
                if (!seen.resources().isEmpty() || !seen.brokers().isEmpty()) {
                    throw new ProvisioningException("RESOURCES_LEFT", "Still present: " + seen.resources(), true);
                }
                yield seen;
            }
            default -> throw new IllegalArgumentException("Unknown step " + step);
        };
    }

    /** Everything a create makes, as the no-cloud driver names it; it observes nothing, so nothing else. */
    @Override
    public List<ResourceChange> plan(ChangeKind kind, ProvisioningTarget target, boolean observe) {
        if (kind != ChangeKind.CREATE) {
            return List.of();
        }
        List<ResourceChange> changes = new ArrayList<>();
        Inventory created = Inventory.EMPTY;
        for (String step : steps(kind, target)) {
            created = simulate(step, target.withObserved(created));
        }
        created.resources().forEach(r -> changes.add(new ResourceChange(ResourceChange.Action.CREATE, r.type(), r.id(), null,
                "does not exist")));
        created.brokers().forEach(b -> changes.add(new ResourceChange(ResourceChange.Action.CREATE, "broker",
                "broker-" + b.nodeId(), null, "in " + b.availabilityZone())));
        return changes;
    }

    private void pause() {
        try {
            Thread.sleep(stepDelay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProvisioningException("INTERRUPTED", "Interrupted while applying a step", true);
        }
    }

    private static Inventory withBrokers(Inventory seen, String base, ProvisioningTarget target) {
        List<Broker> brokers = new ArrayList<>();
        for (int node = 0; node < target.brokerCount(); node++) {
            String zone = target.zones().get(node % target.zones().size()).availabilityZone();
            brokers.add(new Broker(node, zone, "b" + node + "." + base + DOMAIN + ":9092", "i-nocloud" + node));
        }
        return new Inventory(seen.bootstrapServers(), brokers, seen.resources());
    }

    private static Inventory withFileSystems(Inventory seen, String base, Integer count) {
        List<CloudResource> fileSystems = new ArrayList<>();
        for (int i = 0; i < (count == null ? 0 : count); i++) {
            fileSystems.add(new CloudResource("fsx-file-system", base + "-wal-" + i));
        }
        return with(without(seen, "fsx-file-system"), fileSystems.toArray(CloudResource[]::new));
    }

    private static Inventory with(Inventory seen, CloudResource... added) {
        Set<CloudResource> resources = new LinkedHashSet<>(seen.resources());
        resources.addAll(List.of(added));
        return new Inventory(seen.bootstrapServers(), seen.brokers(), List.copyOf(resources));
    }

    private static Inventory without(Inventory seen, String type) {
        return new Inventory(seen.bootstrapServers(), seen.brokers(),
                seen.resources().stream().filter(r -> !r.type().equals(type)).toList());
    }
}

package dev.keel.controlplane.instances;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.billing.CapacityLimits;
import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.controlplane.cloudaccounts.CloudAccount;
import dev.keel.controlplane.cloudaccounts.CloudAccounts;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.identity.Role;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.operations.Operation;
import dev.keel.controlplane.operations.OperationType;
import dev.keel.controlplane.operations.Operations;
import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.NetworkPathGap;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.FieldError;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;

/**
 * Creating, changing and deleting instances. Each change validates, updates the desired spec and
 * starts its operation in one transaction; the cloud work happens later, in {@link InstanceWorkflow}.
 */
@Service
public class Instances {

    /** The drivers' codes for a region or broker version whose brokers could not boot. */
    private static final String MACHINE_IMAGE_MISSING = "NO_MACHINE_IMAGE";
    private static final String BROKER_IMAGE_MISSING = "NO_BROKER_IMAGE";

    /** What {@code If-Match} may hold: any version, or one spec version as its ETag carries it. */
    private static final Pattern ENTITY_TAG = Pattern.compile("\\*|\"[0-9]{1,10}\"");

    private final InstanceRepository repository;
    private final SizingCatalogs catalogs;
    private final CloudAccounts accounts;
    private final Operations operations;
    private final ProvisioningDriver driver;
    private final ProvisioningTargets targets;
    private final InstanceWorkflow workflow;
    private final AuditLog audit;
    private final CapacityLimits limits;
    private final TransactionTemplate transactions;
    private final Duration dataRetention;
    private final DefaultKafkaUser defaultKafkaUser;
    private final ChangeAnswers answers;

    Instances(InstanceRepository repository, SizingCatalogs catalogs, CloudAccounts accounts, Operations operations,
              ProvisioningDriver driver, ProvisioningTargets targets, InstanceWorkflow workflow, AuditLog audit,
              CapacityLimits limits, TransactionTemplate transactions,
              @Value("${keel.instances.data-retention:7d}") Duration dataRetention, DefaultKafkaUser defaultKafkaUser,
              ChangeAnswers answers) {
        this.repository = repository;
        this.catalogs = catalogs;
        this.accounts = accounts;
        this.operations = operations;
        this.driver = driver;
        this.targets = targets;
        this.workflow = workflow;
        this.audit = audit;
        this.limits = limits;
        this.transactions = transactions;
        this.dataRetention = dataRetention;
        this.defaultKafkaUser = defaultKafkaUser;
        this.answers = answers;
    }

    public Instance get(UUID organizationId, UUID id) {
        return repository.find(organizationId, id).orElseThrow(() -> ApiException.notFound("Instance", id));
    }

    /** An instance by id alone, for callers that authenticate as the instance rather than as a member. */
    public Optional<Instance> find(UUID id) {
        return repository.find(id);
    }

    /** Instances whose brokers should be running: what health checks and drift detection look at. */
    public List<Instance> live() {
        return repository.live();
    }

    /** The live instances whose last drift check found them different from their spec. */
    public Set<UUID> drifted() {
        return repository.drifted();
    }

    /**
     * Sets a status condition of the instance as it was read; only when that changes it, the
     * condition is set again under the instance's lock, on the row as it is then.
     */
    public void setCondition(Instance read, String type, String status, String reason, String message) {
        if (Condition.set(read.conditions(), type, status, reason, message, Instant.now()) == read.conditions()) {
            return;
        }
        transactions.executeWithoutResult(tx -> repository.lock(read.id())
                .ifPresent(instance -> repository.setCondition(instance, type, status, reason, message)));
    }

    public SizingCatalog catalogOf(Instance instance) {
        return catalogs.version(instance.spec().catalogVersion());
    }

    Page<Instance> list(UUID organizationId, InstanceState state, String name, Cursor after, int limit) {
        return Cursor.page(repository.list(organizationId, state, name, after, limit + 1), limit,
                instance -> new Cursor(instance.createdAt(), instance.id()));
    }

    /** Validates (reading the customer's network, outside any transaction), then records the instance and its operation. */
    InstanceCreationAccepted create(Caller caller, InstanceCreation request) {
        SizingCatalog catalog = catalogs.current();
        CloudAccount account = validate(caller, request, catalog);
        InstanceSpec spec = specOf(request, catalog);
        // Recorded with the instance: its launch template boots exactly what was checked here.
        BootImage boot = checkedInCloud(caller, account, request, spec).boot();
        return transactions.execute(status -> {
            limits.checkLocked(caller.organizationId(), null, "aku", request.aku());
            if (repository.nameTaken(caller.organizationId(), request.name())) {
                throw nameTaken(request.name());
            }
            UUID id = UUID.randomUUID();
            try {
                repository.insert(id, caller.organizationId(), account.id(), request.name(), request.region(), spec,
                        request.protectedFromDeletion(), Inventory.booting(boot));
            } catch (DuplicateKeyException e) {
                throw nameTaken(request.name());
            }
            Instance instance = repository.find(id).orElseThrow();
            Operation operation = start(caller, instance, OperationType.CREATE, null);
            audit.record(caller, "instance.create", "instance", id, null, InstanceView.of(instance, catalog));
            return answers.record(new InstanceCreationAccepted(operation,
                    defaultKafkaUser.createFor(caller, instance).orElse(null)));
        });
    }

    /** What creating this instance would make in the cloud, creating nothing: the spec is validated as a create is. */
    Plan planCreate(Caller caller, InstanceCreation request) {
        SizingCatalog catalog = catalogs.current();
        CloudAccount account = validate(caller, request, catalog);
        return Plan.of(ChangeKind.CREATE, driver.plan(ChangeKind.CREATE,
                checkedInCloud(caller, account, request, specOf(request, catalog)), false));
    }

    /**
     * The instance a create would make, as the driver sees it, once what its brokers would boot is resolved and its
     * subnets' paths out are checked, through the account's role (outside any transaction): refused, nothing is
     * recorded or created.
     */
    private ProvisioningTarget checkedInCloud(Caller caller, CloudAccount account, InstanceCreation request,
                                              InstanceSpec spec) {
        BootImage boot = bootImage(account, request, spec.brokerVersion());
        Instance draft = new Instance(UUID.randomUUID(), caller.organizationId(), account.id(), request.name(),
                request.region(), InstanceState.CREATING, spec, 1, Inventory.EMPTY, List.of(),
                Instant.now(), Instant.now(), request.protectedFromDeletion(), null);
        ProvisioningTarget target = targets.of(draft, boot);
        requireNetworkPaths(account, request.network().subnets(), target);
        return target;
    }

    /**
     * The subnets' route tables have the paths the brokers need out (the step that prepares them checks again when
     * it runs: routing can change in between): a missing S3 gateway endpoint the spec requires is refused on
     * {@code network.s3GatewayEndpoint}, a subnet that cannot reach the EC2 API on its {@code subnetId}.
     */
    private void requireNetworkPaths(CloudAccount account, List<NetworkSpec.Subnet> subnets, ProvisioningTarget target) {
        List<NetworkPathGap> gaps;
        try {
            gaps = driver.networkPathGaps(target);
        } catch (ProvisioningException e) {
            throw accounts.problem(account, e);
        }
        List<FieldError> errors = new ArrayList<>();
        for (NetworkPathGap gap : gaps) {
            if (gap.path() == NetworkPathGap.Path.S3_GATEWAY_ENDPOINT) {
                errors.add(new FieldError("network.s3GatewayEndpoint", gap.message()));
                continue;
            }
            for (int i = 0; i < subnets.size(); i++) {
                if (gap.subnetIds().contains(subnets.get(i).subnetId())) {
                    errors.add(new FieldError("network.subnets[" + i + "].subnetId", gap.message()));
                }
            }
        }
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
    }

    /**
     * What the brokers would boot in the request's region, resolved through the account's role (outside any
     * transaction): a region without the machine image, or a broker version without a published broker image, is
     * refused before anything is recorded or created.
     */
    private BootImage bootImage(CloudAccount account, InstanceCreation request, String version) {
        try {
            return driver.bootImage(ProvisioningTargets.account(account), request.region(), version);
        } catch (ProvisioningException e) {
            if (MACHINE_IMAGE_MISSING.equals(e.code())) {
                throw ApiException.validation("region", e.getMessage());
            }
            if (BROKER_IMAGE_MISSING.equals(e.code())) {
                throw ApiException.validation(request.brokerVersion() != null ? "brokerVersion" : "wal.type",
                        e.getMessage() + " No " + request.wal().type() + " instance can be created until a broker "
                                + "image of AutoMQ " + version + " is published (broker-image/README.md).");
            }
            throw accounts.problem(account, e);
        }
    }

    /**
     * What converging the instance would change now: with a capacity change, the resources an update
     * to it would add or remove; without one, what repair would fix (drift from the spec).
     */
    Plan plan(Caller caller, UUID id, InstanceUpdate update) {
        Instance instance = get(caller.organizationId(), id);
        if (instance.state() == InstanceState.DELETED) {
            throw ApiException.of(ProblemType.INSTANCE_DELETED, "Instance " + instance.name() + " is deleted; there is nothing to plan.");
        }
        if (update == null) {
            return Plan.of(ChangeKind.REPAIR, driver.plan(ChangeKind.REPAIR, targets.of(instance), true));
        }
        InstanceSpec proposed = proposed(instance, update.capacity());
        limits.check(caller.organizationId(), id, "aku", proposed.aku());
        requireNetwork(caller, instance);
        Instance changed = new Instance(instance.id(), instance.organizationId(), instance.cloudAccountId(), instance.name(),
                instance.region(), instance.state(), proposed, instance.specVersion() + 1, instance.inventory(),
                instance.conditions(), instance.createdAt(), instance.updatedAt(), instance.deletionProtection(),
                instance.dataRetainedUntil());
        return Plan.of(ChangeKind.UPDATE, driver.plan(ChangeKind.UPDATE, targets.of(changed), true));
    }

    /**
     * What deleting the instance would do in the cloud, changing nothing: with {@code purge}, delete every resource
     * at once; without, keep the data bucket for the retention period.
     */
    Plan planDelete(Caller caller, UUID id, boolean purge) {
        Instance instance = get(caller.organizationId(), id);
        if (instance.state() == InstanceState.DELETED) {
            throw ApiException.of(ProblemType.INSTANCE_DELETED, "Instance " + instance.name() + " is deleted; there is nothing to plan.");
        }
        Instant retainedUntil = purge ? null : retentionEnd();
        return Plan.of(ChangeKind.DELETE, driver.plan(ChangeKind.DELETE,
                targets.of(instance).retainingDataUntil(retainedUntil), true), retainedUntil);
    }

    /**
     * Checks the change, the organization's limits and the instance's network in the customer's account first,
     * outside any transaction, then checks the change and the limits again under the instance's and the
     * organization's locks and records it. A change of deletion protection alongside is recorded with it.
     */
    Operation update(Caller caller, UUID id, String ifMatch, InstanceUpdate update) {
        requireIfMatch(id, ifMatch);
        Instance current = get(caller.organizationId(), id);
        InstanceSpec asked = checkedUpdate(current, ifMatch, update.capacity());
        limits.check(caller.organizationId(), id, "aku", asked.aku());
        requireNetwork(caller, current);
        return transactions.execute(status -> {
            Instance instance = repository.lock(caller.organizationId(), id)
                    .orElseThrow(() -> ApiException.notFound("Instance", id));
            InstanceSpec proposed = checkedUpdate(instance, ifMatch, update.capacity());
            limits.checkLocked(caller.organizationId(), id, "aku", proposed.aku());
            repository.updateCapacity(id, proposed.aku(), proposed.fsx(), InstanceState.CHANGING);
            if (update.deletionProtection() != null && update.deletionProtection() != instance.deletionProtection()) {
                setDeletionProtection(caller, instance, update.deletionProtection());
            }
            Instance updated = repository.find(id).orElseThrow();
            Operation operation = start(caller, updated, OperationType.UPDATE, instance.spec());
            audit.record(caller, "instance.update", "instance", id, InstanceView.of(instance, catalogOf(instance)),
                    InstanceView.of(updated, catalogOf(instance)));
            return answers.record(operation);
        });
    }

    /**
     * Turns deletion protection on or off, in any state but {@code DELETED}; touches no cloud, so no operation. The
     * ETag (the spec version) guards it as it guards a capacity change, and it does not change it: it is not the spec.
     */
    Instance updateDeletionProtection(Caller caller, UUID id, String ifMatch, boolean on) {
        requireIfMatch(id, ifMatch);
        return transactions.execute(status -> {
            Instance instance = repository.lock(caller.organizationId(), id)
                    .orElseThrow(() -> ApiException.notFound("Instance", id));
            requireCurrent(instance, ifMatch);
            if (instance.state() == InstanceState.DELETED) {
                throw ApiException.of(ProblemType.INSTANCE_DELETED, "Instance " + instance.name() + " is deleted.");
            }
            if (instance.deletionProtection() == on) {
                throw ApiException.validation("deletionProtection", "changes nothing: deletion protection is already "
                        + (on ? "on" : "off"));
            }
            setDeletionProtection(caller, instance, on);
            return answers.record(repository.find(id).orElseThrow());
        });
    }

    /** Records the change and who made it: turning protection off is what makes the instance deletable. */
    private void setDeletionProtection(Caller caller, Instance instance, boolean on) {
        repository.updateDeletionProtection(instance.id(), on);
        audit.record(caller, on ? "instance.protect" : "instance.unprotect", "instance", instance.id(),
                Map.of("deletionProtection", !on), Map.of("deletionProtection", on));
    }

    private static void requireIfMatch(UUID id, String ifMatch) {
        if (ifMatch == null || ifMatch.isBlank()) {
            throw ApiException.preconditionRequired("Send If-Match with the instance's ETag from GET /instances/" + id
                    + "; it keeps you from overwriting a change you have not seen.");
        }
    }

    /** The spec an update leads to, refused when the ETag is stale or the instance is not RUNNING. */
    private InstanceSpec checkedUpdate(Instance instance, String ifMatch, InstanceUpdate update) {
        requireCurrent(instance, ifMatch);
        if (instance.state() != InstanceState.RUNNING) {
            throw ApiException.of(ProblemType.INSTANCE_NOT_RUNNING, "Instance " + instance.name() + " is " + instance.state()
                    + "; its capacity can change only while it is RUNNING.");
        }
        return proposed(instance, update);
    }

    /**
     * Queues the delete, refused while deletion protection is on. Without {@code purge} the data bucket is kept until
     * the retention period after now (and deleted then, see {@link RetainedDataPurge}); with it, only an admin may
     * delete everything at once.
     */
    @Transactional
    Operation delete(Caller caller, UUID id, String ifMatch, boolean purge) {
        if (purge && caller.role() != Role.ADMIN) {
            throw ApiException.of(ProblemType.FORBIDDEN, "purge", "Deleting an instance's data at once needs the admin "
                    + "role; you are " + caller.role().wireName() + " in " + caller.organizationSlug() + ". Delete without "
                    + "purge: its data bucket is kept " + dataRetention.toDays() + " days, then deleted.");
        }
        Instance instance = repository.lock(caller.organizationId(), id)
                .orElseThrow(() -> ApiException.notFound("Instance", id));
        if (ifMatch != null) {
            requireCurrent(instance, ifMatch);
        }
        if (instance.state() == InstanceState.DELETED) {
            throw ApiException.of(ProblemType.INSTANCE_DELETED, "Instance " + instance.name() + " is already deleted.");
        }
        if (instance.deletionProtection()) {
            throw ApiException.of(ProblemType.DELETION_PROTECTED, "deletionProtection", "Instance " + instance.name()
                    + " has deletion protection on: turn it off first (PATCH /instances/" + id
                    + " with {\"deletionProtection\": false}), then delete it.");
        }
        Operation operation = startDelete(instance, caller.username(), null, purge);
        audit.record(caller, purge ? "instance.purge" : "instance.delete", "instance", id,
                InstanceView.of(instance, catalogOf(instance)), null);
        return answers.record(operation);
    }

    /**
     * Queues the delete of an instance its organization no longer pays for, as a delete without purge: its data is
     * kept for the retention period. Deletion protection does not keep an unpaid instance running. Empty when the
     * instance is already deleted or being deleted, so asking again queues nothing.
     */
    @Transactional
    Optional<Operation> deleteUnpaid(UUID id, String actor, String reason) {
        Instance instance = repository.lock(id).orElseThrow(() -> ApiException.notFound("Instance", id));
        if (instance.state() == InstanceState.DELETING || instance.state() == InstanceState.DELETED) {
            return Optional.empty();
        }
        Operation operation = startDelete(instance, actor, reason, false);
        audit.recordSystem(instance.organizationId(), actor, "instance.delete", "instance", id,
                InstanceView.of(instance, catalogOf(instance)), Map.of("operationId", operation.id(), "reason", reason));
        return Optional.of(operation);
    }

    /** Queues a {@code DELETE} of a locked instance; without {@code purge} its data is kept for the retention period. */
    private Operation startDelete(Instance instance, String requestedBy, String reason, boolean purge) {
        Operation operation = start(instance, OperationType.DELETE, requestedBy, reason, null);
        repository.updateState(instance.id(), InstanceState.DELETING);
        repository.updateDataRetention(instance.id(), purge ? null : retentionEnd());
        return operation;
    }

    /** When the data of an instance deleted now stops being kept, to the second (it is also a tag's value). */
    private Instant retentionEnd() {
        return Instant.now().plus(dataRetention).truncatedTo(ChronoUnit.SECONDS);
    }

    /** Brings a RUNNING instance's cloud resources back to its spec. */
    @Transactional
    Operation repair(Caller caller, UUID id) {
        Instance instance = repository.lock(caller.organizationId(), id)
                .orElseThrow(() -> ApiException.notFound("Instance", id));
        if (instance.state() != InstanceState.RUNNING) {
            throw ApiException.of(ProblemType.INSTANCE_NOT_RUNNING, "Instance " + instance.name() + " is " + instance.state()
                    + "; it can be repaired only while it is RUNNING.");
        }
        Operation operation = startRepair(instance, caller.username(), null);
        audit.record(caller, "instance.repair", "instance", id, null, null);
        return answers.record(operation);
    }

    /** The drift reconciler's repair of a locked RUNNING instance, audited as the reconciler's with what drifted. */
    Operation repairDrift(Instance instance, String drift) {
        Operation operation = startRepair(instance, DriftReconciler.RECONCILER, drift);
        audit.recordSystem(instance.organizationId(), DriftReconciler.RECONCILER, "instance.repair", "instance",
                instance.id(), null, Map.of("operationId", operation.id(), "reason", drift));
        return operation;
    }

    /** Queues a {@code REPAIR} of a locked RUNNING instance. */
    private Operation startRepair(Instance instance, String requestedBy, String reason) {
        Operation operation = start(instance, OperationType.REPAIR, requestedBy, reason, null);
        repository.updateState(instance.id(), InstanceState.CHANGING);
        return operation;
    }

    /**
     * The instance's spec with a capacity change applied, refused when the change is not possible in
     * place. An update never carries {@code wal}, {@code network} or {@code listenerSecurity}, not even unchanged: they are what
     * the instance is, so one rule holds for every value.
     */
    private InstanceSpec proposed(Instance instance, InstanceUpdate update) {
        InstanceSpec spec = instance.spec();
        if (update.wal() != null) {
            throw ApiException.replacementRequired("wal.type", "The WAL type (" + spec.wal().type() + ") cannot change in "
                    + "place: leave wal out of the update, or create a new instance with another WAL type and move clients to it.");
        }
        if (update.network() != null) {
            throw ApiException.replacementRequired("network", "The VPC, subnets and number of zones cannot change in place: "
                    + "leave network out of the update, or create a new instance in the new network and move clients to it.");
        }
        if (update.listenerSecurity() != null) {
            throw ApiException.replacementRequired("listenerSecurity", "How the brokers let clients in ("
                    + spec.listenerSecurity() + ") cannot change in place: leave listenerSecurity out of the update, or "
                    + "create a new instance with the listeners you want and move clients to it.");
        }
        int aku = Objects.requireNonNullElse(update.aku(), spec.aku());
        FsxSpec fsx = merge(spec.fsx(), update.fsx());
        new SpecRules(catalogOf(instance))
                .capacity("network.subnets", spec.network().zones(), spec.wal(), aku, fsx)
                .orThrow();
        if (aku == spec.aku() && Objects.equals(fsx, spec.fsx())) {
            throw ApiException.validation("body", "changes nothing: the instance already has " + aku + " AKU"
                    + (fsx == null ? "" : " and " + fsx.count() + " × " + fsx.throughputMBps() + " MBps FSx"));
        }
        return new InstanceSpec(spec.network(), spec.wal(), aku, fsx, spec.brokerVersion(), spec.catalogVersion(),
                spec.listenerSecurity());
    }

    /**
     * The rules a create must pass, and the cloud account it goes to: the spec, then the organization's limits,
     * before the account's network is read through its role.
     */
    private CloudAccount validate(Caller caller, InstanceCreation request, SizingCatalog catalog) {
        int zones = request.network() == null ? 0 : request.network().zones();
        new SpecRules(catalog)
                .name("name", request.name())
                .check(request.cloudAccountId() != null, "cloudAccountId", "is required")
                .region(request.region())
                .network(request.region(), request.network())
                .capacity("network.subnets", zones, request.wal(), request.aku(), request.fsx())
                .brokerVersion(request.brokerVersion(), request.wal())
                .orThrow();
        limits.check(caller.organizationId(), null, "aku", request.aku());
        CloudAccount account = accounts.find(caller.organizationId(), request.cloudAccountId())
                .orElseThrow(() -> ApiException.validation("cloudAccountId",
                        "no cloud account " + request.cloudAccountId() + " in this organization; register it first"));
        if (account.status() != CloudAccount.Status.VERIFIED) {
            String why = account.verification().message() != null ? account.verification().message()
                    : "it has not been checked yet.";
            throw ApiException.validation("cloudAccountId", "cloud account " + account.name() + " is "
                    + account.status() + ": " + why + " Fix its role, then POST /cloud-accounts/" + account.id() + "/verify");
        }
        if (!account.regions().contains(request.region())) {
            throw ApiException.validation("region", "cloud account " + account.name() + " allows only " + account.regions()
                    + "; add " + request.region() + " to it or choose one of those");
        }
        new SpecRules(catalog).existingNetwork(request.network(), accounts.networks(account, request.region()),
                where(account, request.region())).orThrow();
        return account;
    }

    /**
     * The instance's VPC and subnets still exist in its account as its spec says, and still have the paths out its
     * brokers need, read now through the account's role: the customer's routing may have changed since the create,
     * and an update's first step would fail on it after the update was accepted.
     */
    private void requireNetwork(Caller caller, Instance instance) {
        CloudAccount account = accounts.get(caller.organizationId(), instance.cloudAccountId());
        new SpecRules(catalogOf(instance)).existingNetwork(instance.spec().network(),
                accounts.networks(account, instance.region()), where(account, instance.region())).orThrow();
        requireNetworkPaths(account, instance.spec().network().subnets(), targets.of(instance));
    }

    private static String where(CloudAccount account, String region) {
        return "cloud account " + account.name() + " (" + account.awsAccountId() + ") in " + region
                + " as its role sees it";
    }

    private static InstanceSpec specOf(InstanceCreation request, SizingCatalog catalog) {
        return new InstanceSpec(request.network().withDefaults(), request.wal(), request.aku(), request.fsx(),
                Objects.requireNonNullElseGet(request.brokerVersion(), () -> catalog.defaultBrokerVersion(request.wal().type())),
                catalog.version(),
                Objects.requireNonNullElse(request.listenerSecurity(), InstanceSpec.DEFAULT_LISTENER_SECURITY));
    }

    private Operation start(Caller caller, Instance instance, OperationType type, InstanceSpec previousSpec) {
        return start(instance, type, caller.username(), null, previousSpec);
    }

    private Operation start(Instance instance, OperationType type, String requestedBy, String reason,
                            InstanceSpec previousSpec) {
        return operations.start(instance.organizationId(), instance.id(), type,
                workflow.steps(ChangeKind.valueOf(type.name()), targets.of(instance)), requestedBy, reason,
                instance.state().name(), previousSpec);
    }

    private static void requireCurrent(Instance instance, String ifMatch) {
        if (!ENTITY_TAG.matcher(ifMatch.trim()).matches()) {
            throw ApiException.validation("If-Match", "must be * or an ETag this API sent, a quoted spec version such as \"3\"");
        }
        if (!ifMatch.trim().equals("*") && !ifMatch.trim().equals(instance.etag())) {
            throw ApiException.of(ProblemType.PRECONDITION_FAILED, "Instance " + instance.name() + " is at spec version "
                    + instance.specVersion() + " (ETag " + instance.etag() + ") but If-Match was " + ifMatch
                    + ": GET it again, reapply your change and send the new ETag.");
        }
    }

    private static FsxSpec merge(FsxSpec current, FsxSpec patch) {
        if (patch == null) {
            return current;
        }
        if (current == null) {
            return patch;
        }
        return new FsxSpec(Objects.requireNonNullElse(patch.throughputMBps(), current.throughputMBps()),
                Objects.requireNonNullElse(patch.count(), current.count()));
    }

    private static ApiException nameTaken(String name) {
        return ApiException.of(ProblemType.NAME_TAKEN, "name", "An instance named " + name + " already exists in this organization.");
    }
}

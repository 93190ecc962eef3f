package dev.keel.controlplane.instances;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

import dev.keel.controlplane.operations.Operations;
import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.ResourceChange;

/**
 * Periodically compares each running instance's cloud resources with its spec (the driver's
 * repair plan, which reads the account and changes nothing): broker machines EC2 reports gone or
 * impaired included, never a machine whose agent is merely silent. What differs is recorded as the
 * instance's drift, which the {@code Degraded} condition reports; with
 * {@code keel.drift.auto-repair} (the default) a {@code REPAIR} operation then converges it, unless the
 * fleet-wide {@link RepairBrake} is open. One plan per instance per period: the cost is linear in instances.
 */
@Configuration
class DriftReconciler {

    private static final Logger log = LoggerFactory.getLogger(DriftReconciler.class);
    static final String RECONCILER = "keel-reconciler";
    /** The reason of the {@code Degraded} condition while drift is unrepaired. */
    static final String DRIFTED = "Drifted";

    private final InstanceRepository repository;
    private final ProvisioningDriver driver;
    private final ProvisioningTargets targets;
    private final ObjectProvider<Instances> instances;
    private final ObjectProvider<Operations> operations;
    private final TransactionTemplate transactions;
    private final RepairBrake brake;
    private final boolean autoRepair;

    DriftReconciler(InstanceRepository repository, ProvisioningDriver driver, ProvisioningTargets targets,
                    ObjectProvider<Instances> instances, ObjectProvider<Operations> operations,
                    TransactionTemplate transactions, RepairBrake brake,
                    @Value("${keel.drift.auto-repair:true}") boolean autoRepair) {
        this.repository = repository;
        this.driver = driver;
        this.targets = targets;
        this.instances = instances;
        this.operations = operations;
        this.transactions = transactions;
        this.brake = brake;
        this.autoRepair = autoRepair;
    }

    @Bean
    RecurringTask<Void> reconcileDrift(@Value("${keel.drift.interval:60s}") Duration interval) {
        return Tasks.recurring("reconcile-drift", FixedDelay.of(interval)).execute((instance, context) -> reconcileAll());
    }

    /**
     * An instance without drift before or after is only marked checked, with all the others like it in
     * one statement: at thousands of instances, a transaction each per period would load the database
     * for nothing.
     */
    void reconcileAll() {
        boolean repairing = autoRepair && !brake.open();
        Set<UUID> drifted = repository.drifted();
        List<UUID> unchanged = new ArrayList<>();
        for (Instance instance : repository.live()) {
            if (instance.state() != InstanceState.RUNNING) {
                continue;
            }
            try {
                Instant observed = Instant.now();
                String drift = drift(instance);
                if (drift == null && !drifted.contains(instance.id())) {
                    unchanged.add(instance.id());
                } else {
                    record(instance, drift, observed, repairing);
                }
            } catch (RuntimeException e) {
                log.warn("Drift check of instance {} failed: {}", instance.id(), e.toString());
            }
        }
        repository.checkedWithoutDrift(unchanged);
    }

    /** What differs between the instance's cloud resources and its spec, or null when nothing does. */
    private @Nullable String drift(Instance instance) {
        List<ResourceChange> changes = driver.plan(ChangeKind.REPAIR, targets.of(instance), true);
        return changes.isEmpty() ? null : changes.stream()
                .map(c -> c.logicalName() + " (" + c.type() + ") " + describe(c))
                .collect(Collectors.joining(", "));
    }

    /** Records what was observed, unless the instance changed or an operation finished on it since. */
    private void record(Instance instance, @Nullable String drift, Instant observed, boolean repairing) {
        transactions.executeWithoutResult(tx -> repository.lock(instance.id())
                .filter(locked -> locked.state() == InstanceState.RUNNING)
                .filter(locked -> !operations.getObject().finishedSince(locked.id(), observed))
                .ifPresent(locked -> recordLocked(locked, drift, repairing)));
    }

    /**
     * Records the drift and, when there is some, reports it at once rather than at the next health
     * evaluation: a repair can converge it before then, and the user must still see what happened.
     */
    private void recordLocked(Instance instance, @Nullable String drift, boolean repairing) {
        repository.updateDrift(instance.id(), drift);
        if (drift == null) {
            return;
        }
        String message = "The cloud differs from the spec: " + drift + ".";
        if (autoRepair && !repairing) {
            message += " Automatic repair is suspended while too many broker agents across Keel are silent.";
        }
        repository.setCondition(instance, Condition.DEGRADED, "True", DRIFTED, message);
        if (repairing) {
            log.info("Instance {} drifted ({}); starting a repair", instance.id(), drift);
            instances.getObject().repairDrift(instance, message);
        }
    }

    private static String describe(ResourceChange change) {
        return switch (change.action()) {
            case CREATE -> "is missing";
            case UPDATE -> "differs from the spec";
            case REPLACE -> "is to be replaced: " + change.reason();
            case DELETE -> "should not exist";
        };
    }
}

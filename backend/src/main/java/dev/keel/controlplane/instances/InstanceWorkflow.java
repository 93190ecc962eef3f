package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.billing.CapacityLedger;
import dev.keel.controlplane.drains.AgentBrokerDrain;
import dev.keel.controlplane.operations.Operation;
import dev.keel.controlplane.operations.OperationWorkflow;
import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.StepRun;
import tools.jackson.databind.json.JsonMapper;

/**
 * What each operation step and outcome means for an instance: the driver's steps change the cloud;
 * {@value #DRAIN_SURPLUS_BROKERS}, the control plane's own, moves the partitions off the brokers
 * an update is about to retire; and {@value ServingGate#STEP}, its own too, ends every change that launches brokers
 * once they serve clients.
 */
@Component
class InstanceWorkflow implements OperationWorkflow {

    static final String DRAIN_SURPLUS_BROKERS = "drain-surplus-brokers";

    private final InstanceRepository repository;
    private final ProvisioningDriver driver;
    private final ProvisioningTargets targets;
    private final AgentBrokerDrain drain;
    private final ServingGate serving;
    private final JsonMapper json;
    private final CapacityLedger capacity;
    private final ApplicationEventPublisher events;

    InstanceWorkflow(InstanceRepository repository, ProvisioningDriver driver, ProvisioningTargets targets,
                     AgentBrokerDrain drain, ServingGate serving, JsonMapper json, CapacityLedger capacity,
                     ApplicationEventPublisher events) {
        this.repository = repository;
        this.driver = driver;
        this.targets = targets;
        this.drain = drain;
        this.serving = serving;
        this.json = json;
        this.capacity = capacity;
        this.events = events;
    }

    /**
     * The steps of a change: the driver's, with the drain just before the surplus brokers are retired, and, unless it
     * deletes, the wait for the brokers to serve last.
     */
    List<String> steps(ChangeKind kind, ProvisioningTarget target) {
        List<String> steps = new ArrayList<>();
        for (String step : driver.steps(kind, target)) {
            if (step.equals(ProvisioningDriver.RETIRE_SURPLUS_BROKERS)) {
                steps.add(DRAIN_SURPLUS_BROKERS);
            }
            steps.add(step);
        }
        if (kind != ChangeKind.DELETE) {
            steps.add(ServingGate.STEP);
        }
        return List.copyOf(steps);
    }

    @Override
    public StepResult runStep(Operation operation, String step, StepRun run) {
        if (step.equals(ServingGate.STEP)) {
            serving.await(operation.instanceId(), run);
            return StepResult.NOTHING;
        }
        Instance instance = repository.find(operation.instanceId()).orElseThrow();
        ProvisioningTarget target = targets.of(instance);
        if (step.equals(DRAIN_SURPLUS_BROKERS)) {
            drain.drain(instance.id(), target.brokerCount(), surplus(instance.inventory(), target.brokerCount()), run);
            return StepResult.NOTHING;
        }
        Inventory inventory = driver.apply(step, target, run);
        if (step.equals(ProvisioningDriver.TERMINATE_BROKERS)) {
            // Usage ends with the brokers, even if a later step of the delete fails.
            return () -> {
                repository.updateInventory(instance.id(), inventory);
                capacity.stopped(instance.id());
            };
        }
        return () -> repository.updateInventory(instance.id(), inventory);
    }

    /** The machines of the brokers at or beyond {@code brokerCount}, as last observed: node id by machine. */
    private static Map<String, Integer> surplus(Inventory inventory, int brokerCount) {
        return inventory.brokers().stream()
                .filter(b -> b.nodeId() >= brokerCount && b.machineId() != null)
                .collect(Collectors.toMap(Inventory.Broker::machineId, Inventory.Broker::nodeId));
    }

    @Override
    public void succeeded(Operation operation) {
        Instance instance = repository.find(operation.instanceId()).orElseThrow();
        switch (operation.type()) {
            case CREATE, UPDATE, REPAIR -> {
                repository.updateState(instance.id(), InstanceState.RUNNING);
                repository.updateDrift(instance.id(), null);
                capacity.running(instance.id(), instance.organizationId(), instance.spec().aku());
                setReady(instance, "True", "Provisioned", "All resources match spec version " + instance.specVersion() + ".");
                clearDrifted(repository.find(instance.id()).orElseThrow(), operation);
            }
            case DELETE -> {
                repository.updateState(instance.id(), InstanceState.DELETED);
                capacity.stopped(instance.id());
                // Only Ready says anything of a deleted instance: what its brokers last showed no longer holds.
                Condition ready = instance.conditions().stream().filter(c -> c.type().equals(Condition.READY))
                        .findFirst().orElse(null);
                repository.updateConditions(instance.id(), Condition.set(ready == null ? List.of() : List.of(ready),
                        Condition.READY, "False", "Deleted", "The instance and its cloud resources are deleted.",
                        Instant.now()));
            }
        }
    }

    @Override
    public void failed(Operation operation, Operation.Error error) {
        Instance instance = repository.find(operation.instanceId()).orElseThrow();
        repository.updateState(instance.id(), InstanceState.FAILED);
        setReady(instance, "False", error.code(), operation.type() + " failed: " + error.message());
    }

    @Override
    public void cancelled(Operation operation) {
        Instance instance = repository.find(operation.instanceId()).orElseThrow();
        InstanceState previous = InstanceState.valueOf(operation.previousState());
        switch (operation.type()) {
            case CREATE -> repository.updateState(instance.id(), InstanceState.DELETED);
            case UPDATE -> {
                InstanceSpec before = json.treeToValue(operation.previousSpec(), InstanceSpec.class);
                repository.updateCapacity(instance.id(), before.aku(), before.fsx(), previous);
            }
            case DELETE -> {
                repository.updateState(instance.id(), previous);
                repository.updateDataRetention(instance.id(), null);
            }
            case REPAIR -> repository.updateState(instance.id(), previous);
        }
    }

    /**
     * Drift the operation converged no longer degrades the instance; broker health takes the conditions back at once,
     * in this transaction, so that {@code Degraded} and {@code AgentsSilent} say the same of the brokers.
     */
    private void clearDrifted(Instance instance, Operation operation) {
        instance.conditions().stream()
                .filter(c -> c.type().equals(Condition.DEGRADED) && c.reason().equals(DriftReconciler.DRIFTED))
                .findFirst()
                .ifPresent(c -> {
                    repository.setCondition(instance, Condition.DEGRADED, "False", "Repaired",
                            "Operation " + operation.id() + " brought the cloud back to the spec.");
                    events.publishEvent(new DriftCleared(instance.id()));
                });
    }

    private void setReady(Instance instance, String status, String reason, String message) {
        repository.setCondition(instance, Condition.READY, status, reason, message);
    }
}

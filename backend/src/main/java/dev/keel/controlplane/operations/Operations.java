package dev.keel.controlplane.operations;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import com.github.kagkarlsson.scheduler.Scheduler;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;

/** Starting, reading and cancelling operations. Execution is {@link OperationRunner}'s. */
@Service
public class Operations {

    private final OperationRepository repository;
    private final Scheduler scheduler;
    private final OperationWorkflow workflow;
    private final AuditLog audit;

    Operations(OperationRepository repository, Scheduler scheduler, OperationWorkflow workflow, AuditLog audit) {
        this.repository = repository;
        this.scheduler = scheduler;
        this.workflow = workflow;
        this.audit = audit;
    }

    /**
     * Persists an operation and queues its execution, inside the caller's transaction: the change
     * that asked for it, the operation and the queued run commit together or not at all. Once they
     * have, the workers look for it at once instead of at their next poll.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public Operation start(UUID organizationId, UUID instanceId, OperationType type, List<String> steps,
                           String requestedBy, String reason, String previousState, Object previousSpec) {
        if (repository.hasUnfinished(instanceId)) {
            throw ApiException.of(ProblemType.OPERATION_IN_PROGRESS,
                    "Another operation is pending or running on instance " + instanceId + "; wait for it or cancel it.");
        }
        UUID id = UUID.randomUUID();
        repository.insert(id, organizationId, instanceId, type, requestedBy, reason, previousState, previousSpec, steps);
        scheduler.scheduleIfNotExists(OperationRunner.RUN_OPERATION.instance(id.toString()).scheduledTo(Instant.now()));
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                scheduler.triggerCheckForDueExecutions();
            }
        });
        return repository.find(id).orElseThrow();
    }

    /** Whether an operation on the instance finished at or after {@code since}: what was observed before may be stale. */
    public boolean finishedSince(UUID instanceId, Instant since) {
        return repository.finishedSince(instanceId, since);
    }

    /**
     * Of {@code instanceIds}, those whose latest operation that launches brokers (a create, update or repair) is
     * running, or succeeded at or after {@code endedSince}, with its type: their new brokers may still be starting.
     */
    public Map<UUID, OperationType> launchingBrokers(List<UUID> instanceIds, Instant endedSince) {
        return instanceIds.isEmpty() ? Map.of() : repository.launchingBrokers(instanceIds, endedSince);
    }

    /** Whether a create, update or repair runs on the instance now: it may be launching brokers. */
    public boolean launchingBrokers(UUID instanceId) {
        return repository.launchingBrokersNow(instanceId);
    }

    public Operation get(UUID organizationId, UUID id) {
        return repository.find(organizationId, id).orElseThrow(() -> ApiException.notFound("Operation", id));
    }

    public Optional<Operation> find(UUID organizationId, UUID id) {
        return repository.find(organizationId, id);
    }

    public Page<Operation> listForInstance(UUID organizationId, UUID instanceId, Cursor after, int limit) {
        return Cursor.page(repository.listForInstance(organizationId, instanceId, after, limit + 1), limit,
                op -> new Cursor(op.createdAt(), op.id()));
    }

    /** Cancels an operation no worker has started: nothing has touched the cloud yet, so it is safe. */
    @Transactional
    public Operation cancel(Caller caller, UUID id) {
        Operation operation = get(caller.organizationId(), id);
        if (operation.state() == OperationState.CANCELLED) {
            return operation;
        }
        if (!repository.cancelIfPending(id)) {
            throw ApiException.of(ProblemType.OPERATION_STARTED, "Operation " + id + " is "
                    + repository.find(id).orElseThrow().state()
                    + "; only a PENDING operation can be cancelled, because a started one may have changed cloud resources.");
        }
        Operation cancelled = repository.find(id).orElseThrow();
        workflow.cancelled(cancelled);
        audit.record(caller, "operation.cancel", "operation", id, operation, cancelled);
        return cancelled;
    }
}

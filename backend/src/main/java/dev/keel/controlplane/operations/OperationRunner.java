package dev.keel.controlplane.operations;

import java.time.Duration;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

import dev.keel.controlplane.operations.Operation.Step;
import dev.keel.controlplane.operations.Operation.StepState;
import dev.keel.provisioner.ProvisioningException;

/**
 * Executes operations from db-scheduler's durable queue. db-scheduler guarantees one worker at a
 * time per operation across processes and revives the run of a worker that died (its heartbeat
 * stops). Each step's start and completion are committed, so a revived run skips finished steps and
 * repeats only the one that was in flight, which drivers make idempotent. A step's own work runs
 * between those two commits, outside any transaction: waiting on the cloud holds no connection.
 */
@Configuration
public class OperationRunner {

    static final TaskDescriptor<Void> RUN_OPERATION = TaskDescriptor.of("run-operation");
    private static final Logger log = LoggerFactory.getLogger(OperationRunner.class);

    private final OperationRepository repository;
    private final OperationWorkflow workflow;
    private final TransactionTemplate transactions;
    private final String workerId;
    private final int maxAttempts;
    private final MeterRegistry meters;

    OperationRunner(OperationRepository repository, OperationWorkflow workflow, TransactionTemplate transactions,
                    @Value("${keel.worker-id}") String workerId,
                    @Value("${keel.operations.max-step-attempts:8}") int maxAttempts, MeterRegistry meters) {
        this.repository = repository;
        this.workflow = workflow;
        this.transactions = transactions;
        this.workerId = workerId;
        this.maxAttempts = maxAttempts;
        this.meters = meters;
    }

    @Bean
    OneTimeTask<Void> runOperationTask(@Value("${keel.operations.retry-backoff:2s}") Duration backoff) {
        return Tasks.oneTime(RUN_OPERATION)
                .onFailure(new FailureHandler.ExponentialBackoffFailureHandler<>(backoff, 2.0))
                .execute((instance, context) -> run(UUID.fromString(instance.getId())));
    }

    void run(UUID id) {
        MDC.put("operationId", id.toString());
        try {
            Operation operation = repository.find(id).orElse(null);
            if (operation == null || operation.state().finished()) {
                return;
            }
            if (operation.state() == OperationState.PENDING && !repository.markRunning(id)) {
                return;
            }
            for (Step step : operation.steps()) {
                if (step.state() == StepState.SUCCEEDED || step.state() == StepState.SKIPPED) {
                    continue;
                }
                if (!runStep(operation, step)) {
                    return;
                }
            }
            transactions.executeWithoutResult(tx -> {
                repository.finish(id, OperationState.SUCCEEDED, null);
                workflow.succeeded(operation);
            });
            finished(operation, OperationState.SUCCEEDED);
            log.info("Operation {} {} succeeded", operation.type(), id);
        } finally {
            MDC.remove("operationId");
        }
    }

    /** Runs one step; false when the operation has failed and must stop. Transient errors propagate to be retried. */
    private boolean runStep(Operation operation, Step step) {
        if (step.attempts() >= maxAttempts) {
            fail(operation, step, new Operation.Error("RETRIES_EXHAUSTED",
                    "Step " + step.name() + " failed " + step.attempts() + " times; last error: " + step.message()));
            return false;
        }
        transactions.executeWithoutResult(tx -> repository.stepStarted(operation.id(), step.position(), workerId));
        Timer.Sample started = Timer.start(meters);
        try {
            OperationWorkflow.StepResult result = workflow.runStep(operation, step.name());
            transactions.executeWithoutResult(tx -> {
                result.record();
                repository.stepSucceeded(operation.id(), step.position());
            });
            started.stop(meters.timer("keel.operations.steps", "step", step.name()));
            return true;
        } catch (ProvisioningException e) {
            if (e.retryable()) {
                retryLater(operation, step, e);
                throw e;
            }
            fail(operation, step, new Operation.Error(e.code(), e.getMessage()));
            return false;
        } catch (RuntimeException | Error e) {
            retryLater(operation, step, e);
            throw e;
        }
    }

    /** Records why a step failed; the caller rethrows so db-scheduler retries the run with backoff. */
    private void retryLater(Operation operation, Step step, Throwable e) {
        log.warn("Step {} of operation {} failed, will retry: {}", step.name(), operation.id(), e.toString());
        transactions.executeWithoutResult(tx -> repository.stepRetrying(operation.id(), step.position(), e.toString()));
    }

    private void fail(Operation operation, Step step, Operation.Error error) {
        log.warn("Operation {} {} failed at step {}: {}", operation.type(), operation.id(), step.name(), error.message());
        transactions.executeWithoutResult(tx -> {
            repository.stepFailed(operation.id(), step.position(), error.message());
            repository.finish(operation.id(), OperationState.FAILED, error);
            workflow.failed(operation, error);
        });
        finished(operation, OperationState.FAILED);
    }

    private void finished(Operation operation, OperationState state) {
        meters.counter("keel.operations.finished", "type", operation.type().name(), "state", state.name()).increment();
    }
}

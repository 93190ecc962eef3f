package dev.keel.controlplane.operations;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskDescriptor;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;

import dev.keel.controlplane.operations.Operation.Step;
import dev.keel.controlplane.operations.Operation.StepState;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.StaleStep;
import dev.keel.provisioner.StepRun;
import dev.keel.provisioner.StepWaiting;

/**
 * Executes operations from db-scheduler's durable queue. db-scheduler revives the run of a worker whose heartbeat
 * stopped; but a worker that is alive and merely cut off from the database for longer than that (a long pause, a
 * failover) may still be running when another takes over. So each run takes the operation's fence first, and every
 * write it makes (a step started, done or failed, the inventory, the end) is conditional on still holding it, as is
 * every change the driver makes in the cloud: a run that lost its fence stops without writing or changing anything.
 * Each step's start and completion are committed, so a new run skips finished steps and repeats only the one that
 * was in flight, which drivers make idempotent. A step's own work runs between those two commits, outside any
 * transaction: waiting on the cloud holds no connection. A run pauses its thread for a step's waits at most
 * {@code keel.operations.inline-pause} in all; past that a wait ends the run and the step is run again at its next
 * look, so the worker count bounds work in progress, not waits.
 */
@Configuration
public class OperationRunner {

    static final TaskDescriptor<Void> RUN_OPERATION = TaskDescriptor.of("run-operation");
    private static final CompletionHandler<Void> DONE = new CompletionHandler.OnCompleteRemove<>();
    private static final Logger log = LoggerFactory.getLogger(OperationRunner.class);

    private final OperationRepository repository;
    private final OperationWorkflow workflow;
    private final TransactionTemplate transactions;
    private final String workerId;
    private final int maxAttempts;
    private final Duration inlinePause;
    private final MeterRegistry meters;

    OperationRunner(OperationRepository repository, OperationWorkflow workflow, TransactionTemplate transactions,
                    @Value("${keel.worker-id}") String workerId,
                    @Value("${keel.operations.max-step-attempts:8}") int maxAttempts,
                    @Value("${keel.operations.inline-pause:1s}") Duration inlinePause,
                    MeterRegistry meters) {
        this.repository = repository;
        this.workflow = workflow;
        this.transactions = transactions;
        this.workerId = workerId;
        this.maxAttempts = maxAttempts;
        this.inlinePause = inlinePause;
        this.meters = meters;
    }

    @Bean
    CustomTask<Void> runOperationTask(@Value("${keel.operations.retry-backoff:2s}") Duration backoff) {
        return Tasks.custom(RUN_OPERATION)
                .onFailure(new FailureHandler.ExponentialBackoffFailureHandler<>(backoff, 2.0))
                .onDeadExecutionRevive()
                .execute((instance, context) -> run(UUID.fromString(instance.getId())));
    }

    /**
     * Runs the operation as far as it goes now, and says what becomes of its execution: gone once there is nothing
     * more to run, due again at the next look when a step waits, and left alone by a run that lost the operation (it
     * belongs to the run that took it).
     */
    CompletionHandler<Void> run(UUID id) {
        MDC.put("operationId", id.toString());
        try {
            OptionalLong fence = transactions.execute(tx -> repository.takeFence(id, workerId));
            if (fence.isEmpty()) {
                return DONE;
            }
            Run run = new Run(id, fence.getAsLong());
            // Read under the fence: whatever an earlier run committed is here.
            Operation operation = repository.find(id).orElseThrow();
            if (operation.state() == OperationState.PENDING
                    && !run.writing(() -> repository.markRunning(id))) {
                return DONE;
            }
            for (Step step : operation.steps()) {
                if (step.state() == StepState.SUCCEEDED || step.state() == StepState.SKIPPED) {
                    continue;
                }
                StepOutcome outcome = runStep(run, operation, step);
                if (!outcome.done()) {
                    Instant nextLook = outcome.nextLook();
                    return nextLook == null ? DONE : (complete, operations) -> operations.reschedule(complete, nextLook);
                }
            }
            run.write(() -> {
                repository.finish(id, OperationState.SUCCEEDED, null);
                workflow.succeeded(operation);
            });
            finished(operation, OperationState.SUCCEEDED);
            log.info("Operation {} {} succeeded", operation.type(), id);
            return DONE;
        } catch (StaleStep e) {
            log.warn("Operation {}: {}", id, e.getMessage());
            meters.counter("keel.operations.stale.runs").increment();
            return (complete, operations) -> {
            };
        } finally {
            MDC.remove("operationId");
        }
    }

    /**
     * How a step's run ended, when it did not throw for a retry: done, or not, and then when to run the operation
     * again (the step waits), or never (it failed the operation).
     */
    private record StepOutcome(boolean done, Instant nextLook) {
        static final StepOutcome DONE = new StepOutcome(true, null);
        static final StepOutcome FAILED = new StepOutcome(false, null);

        static StepOutcome waitingUntil(Instant nextLook) {
            return new StepOutcome(false, nextLook);
        }
    }

    /** Runs one step. Transient errors propagate to be retried; a lost fence propagates to stop the run. */
    private StepOutcome runStep(Run run, Operation operation, Step step) {
        if (step.attempts() >= maxAttempts && step.waitingFor() == null) {
            fail(run, operation, step, new Operation.Error("RETRIES_EXHAUSTED",
                    "Step " + step.name() + " failed " + step.attempts() + " times; last error: " + step.message()));
            return StepOutcome.FAILED;
        }
        run.write(() -> repository.stepStarted(operation.id(), step.position(), workerId));
        Timer.Sample started = Timer.start(meters);
        try {
            OperationWorkflow.StepResult result = workflow.runStep(operation, step.name(), run.of(step));
            run.write(() -> {
                result.record();
                repository.stepSucceeded(operation.id(), step.position());
            });
            started.stop(meters.timer("keel.operations.steps", "step", step.name()));
            return StepOutcome.DONE;
        } catch (StepWaiting waiting) {
            run.write(() -> repository.stepWaiting(operation.id(), step.position(), waiting.what(), waiting.since(),
                    waiting.nextLook()));
            return StepOutcome.waitingUntil(waiting.nextLook());
        } catch (StaleStep e) {
            throw e;
        } catch (ProvisioningException e) {
            if (e.retryable()) {
                retryLater(run, operation, step, e);
                throw e;
            }
            fail(run, operation, step, new Operation.Error(e.code(), e.getMessage()));
            return StepOutcome.FAILED;
        } catch (RuntimeException | Error e) {
            retryLater(run, operation, step, e);
            throw e;
        }
    }

    /** Records why a step failed; the caller rethrows so db-scheduler retries the run with backoff. */
    private void retryLater(Run run, Operation operation, Step step, Throwable e) {
        log.warn("Step {} of operation {} failed, will retry: {}", step.name(), operation.id(), e.toString());
        run.write(() -> repository.stepRetrying(operation.id(), step.position(), e.toString()));
    }

    private void fail(Run run, Operation operation, Step step, Operation.Error error) {
        log.warn("Operation {} {} failed at step {}: {}", operation.type(), operation.id(), step.name(), error.message());
        run.write(() -> {
            repository.stepFailed(operation.id(), step.position(), error.message());
            repository.finish(operation.id(), OperationState.FAILED, error);
            workflow.failed(operation, error);
        });
        finished(operation, OperationState.FAILED);
    }

    private void finished(Operation operation, OperationState state) {
        meters.counter("keel.operations.finished", "type", operation.type().name(), "state", state.name()).increment();
    }

    /** One run of an operation, holding its fence. */
    private final class Run {

        private final UUID id;
        private final long fence;

        private Run(UUID id, long fence) {
            this.id = id;
            this.fence = fence;
        }

        /** Does {@code writes} in one transaction, only while this run holds the fence; else throws {@link StaleStep}. */
        void write(Runnable writes) {
            writing(() -> {
                writes.run();
                return true;
            });
        }

        /** As {@link #write(Runnable)}, answering what the writes answer. */
        boolean writing(BooleanSupplier writes) {
            return Boolean.TRUE.equals(transactions.execute(tx -> {
                repository.holdFence(id, fence);
                return writes.getAsBoolean();
            }));
        }

        /** What the driver is given for a run of {@code step}: the fence to check and the wait to carry on. */
        StepRun of(Step step) {
            return new StepRun() {
                private Duration paused = Duration.ZERO;

                @Override
                public void beforeCloudChange() {
                    repository.checkFence(id, fence);
                }

                @Override
                public Instant waitingSince(String what) {
                    return what.equals(step.waitingFor()) ? step.waitingSince() : null;
                }

                @Override
                public Duration inlinePauseLeft() {
                    return inlinePause.minus(paused);
                }

                @Override
                public void pausedInline(Duration pause) {
                    paused = paused.plus(pause);
                }
            };
        }
    }
}

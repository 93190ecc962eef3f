package dev.keel.controlplane.operations;

import dev.keel.provisioner.StepRun;

/**
 * What an operation does to the thing it changes. The engine owns ordering, retries, durability
 * and bookkeeping; a workflow owns the meaning of each step and of the outcome.
 */
public interface OperationWorkflow {

    /**
     * Does a step's work in {@code run}, outside any database transaction: cloud calls and waits of many minutes
     * must hold no connection and no row lock. Returns what the step leaves behind, which the engine
     * records in the short transaction that marks the step done. A crash between the two repeats
     * the step, so a step must be idempotent; a step that waits longer than the run may pause throws
     * {@link dev.keel.provisioner.StepWaiting} and is run again at its next look.
     */
    StepResult runStep(Operation operation, String step, StepRun run);

    /** Runs inside the engine's transaction that finishes the operation; likewise the two below. */
    void succeeded(Operation operation);

    void failed(Operation operation, Operation.Error error);

    void cancelled(Operation operation);

    /** What a finished step leaves behind, recorded with the step's completion. */
    @FunctionalInterface
    interface StepResult {

        StepResult NOTHING = () -> {
        };

        void record();
    }
}

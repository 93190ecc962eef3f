package dev.keel.controlplane.operations;

/**
 * What an operation does to the thing it changes. The engine owns ordering, retries, durability
 * and bookkeeping; a workflow owns the meaning of each step and of the outcome. Every callback runs
 * inside the engine's transaction for that step or outcome.
 */
public interface OperationWorkflow {

    void runStep(Operation operation, String step);

    void succeeded(Operation operation);

    void failed(Operation operation, Operation.Error error);

    void cancelled(Operation operation);
}

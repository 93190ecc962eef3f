package dev.keel.provisioner.aws;

import java.util.function.Supplier;

import dev.keel.provisioner.StepRun;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Asks the run of the step applying on the calling thread whether it still holds its step before each call that
 * changes something in the customer's account: every resource's calls go through the account's clients, so no change
 * can slip past it. Reads go ahead, as they change nothing. The SDK runs a synchronous call's interceptors on the
 * caller's thread, which is what lets the step's run travel with the thread.
 */
final class StepFence implements ExecutionInterceptor {

    private static final ThreadLocal<StepRun> CURRENT = new ThreadLocal<>();

    /** Does {@code work} as {@code run}: the calls it makes are fenced by it. */
    static <T> T during(StepRun run, Supplier<T> work) {
        StepRun outer = CURRENT.get();
        CURRENT.set(run);
        try {
            return work.get();
        } finally {
            CURRENT.set(outer);
        }
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        StepRun run = CURRENT.get();
        if (run != null && changes(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
            run.beforeCloudChange();
        }
    }

    static boolean changes(String operation) {
        return !(operation.startsWith("Describe") || operation.startsWith("Get") || operation.startsWith("List")
                || operation.startsWith("Head") || operation.equals("AssumeRole"));
    }
}

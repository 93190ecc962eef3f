package dev.keel.provisioner.aws;

import java.util.ArrayList;
import java.util.List;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** A test fixture: an SDK interceptor that records the operations a driver calls ({@code CreateRole}, …), in order. */
final class CallRecorder implements ExecutionInterceptor {

    private final List<String> operations = new ArrayList<>();

    @Override
    public synchronized void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        operations.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
    }

    /** The operations called since the last call of this method (or since the start), which it forgets. */
    synchronized List<String> take() {
        List<String> taken = List.copyOf(operations);
        operations.clear();
        return taken;
    }
}

package dev.keel.provisioner.aws;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import software.amazon.awssdk.core.exception.NonRetryableException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * A test fixture: the first successful answer to each of the given calls ({@code Service:Operation}, e.g.
 * {@code Ec2:RunInstances}) is lost after the request has reached AWS and done its work, as when the connection
 * drops or the worker dies before the answer arrives. Nothing retries it at the SDK: the step fails, knowing nothing
 * of what it made.
 */
final class LostResponses implements ExecutionInterceptor {

    private final Set<String> calls;
    private final Set<String> lost = ConcurrentHashMap.newKeySet();

    LostResponses(Set<String> calls) {
        this.calls = Set.copyOf(calls);
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        String call = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + ":"
                + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        if (context.httpResponse().isSuccessful() && calls.contains(call) && lost.add(call)) {
            throw NonRetryableException.builder().message("The answer to " + call + " was lost after the request "
                    + "reached AWS (injected by LostResponses)").build();
        }
    }

    /** The calls whose answer was lost so far. */
    Set<String> lost() {
        return Set.copyOf(lost);
    }
}

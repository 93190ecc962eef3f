package dev.keel.provisioner.aws;

import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * A test fixture: an SDK interceptor that fails calls before they are sent. A share of all calls
 * fails with throttling or HTTP 500 (which the SDK's retry strategy retries), and calls to chosen
 * operations fail with an AccessDenied shaped like AWS's (which nothing retries). The backend's
 * test fixtures install it in a backend process when {@code keel.provisioning.aws.test-faults.*}
 * is set.
 */
public final class FaultInjectionInterceptor implements ExecutionInterceptor {

    private final double transientShare;
    private final Set<String> deniedOperations;
    private final Random random;
    private final AtomicInteger injected = new AtomicInteger();
    private final AtomicInteger seen = new AtomicInteger();

    /**
     * @param transientShare   share of calls (0..1) failed with throttling or 500
     * @param deniedOperations operation names (e.g. {@code RunInstances}) always denied
     * @param seed             for reproducible failures
     */
    public FaultInjectionInterceptor(double transientShare, Set<String> deniedOperations, long seed) {
        this.transientShare = transientShare;
        this.deniedOperations = Set.copyOf(deniedOperations);
        this.random = new Random(seed);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        seen.incrementAndGet();
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
        if (deniedOperations.contains(operation)) {
            String action = prefix(service) + ":" + operation;
            throw AwsServiceException.builder().statusCode(403)
                    .awsErrorDetails(AwsErrorDetails.builder().serviceName(service)
                            .errorCode("ec2".equals(prefix(service)) ? "UnauthorizedOperation" : "AccessDenied")
                            .errorMessage("User: arn:aws:sts::000000000000:assumed-role/keel-test/keel is not "
                                    + "authorized to perform: " + action + " (injected by FaultInjectionInterceptor)")
                            .build())
                    .message("injected AccessDenied for " + action).build();
        }
        boolean fail;
        boolean throttle;
        synchronized (random) {
            fail = random.nextDouble() < transientShare;
            throttle = random.nextBoolean();
        }
        if (fail) {
            injected.incrementAndGet();
            throw AwsServiceException.builder().statusCode(throttle ? 400 : 500)
                    .awsErrorDetails(AwsErrorDetails.builder().serviceName(service)
                            .errorCode(throttle ? "Throttling" : "InternalError")
                            .errorMessage("injected by FaultInjectionInterceptor").build())
                    .message("injected " + (throttle ? "throttling" : "500") + " on " + operation).build();
        }
    }

    /** Calls failed with throttling or 500 so far. */
    public int injected() {
        return injected.get();
    }

    /** Calls (attempts) that reached this interceptor so far. */
    public int seen() {
        return seen.get();
    }

    private static String prefix(String service) {
        if (service == null) {
            return "unknown";
        }
        return switch (service.toLowerCase()) {
            case "ec2" -> "ec2";
            case "iam" -> "iam";
            case "s3" -> "s3";
            case "sts" -> "sts";
            case "fsx" -> "fsx";
            default -> service.toLowerCase();
        };
    }
}

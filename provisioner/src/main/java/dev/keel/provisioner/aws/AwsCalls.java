package dev.keel.provisioner.aws;

import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.keel.provisioner.ProvisioningException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Every SDK call goes through {@link #call}, named by the IAM action it needs, so a failure can be
 * classified: a missing permission fails the step for good and names the action; throttling, 5xx,
 * I/O errors and AWS's eventual consistency are retryable. (The SDK has already retried throttling
 * and 5xx with jittered backoff by the time an error reaches here.)
 */
public final class AwsCalls {

    public static final String ACCESS_DENIED = "AWS_ACCESS_DENIED";
    public static final String TRANSIENT = "AWS_TRANSIENT";

    private static final Pattern DENIED_ACTION =
            Pattern.compile("not authorized to perform:?\\s+([A-Za-z0-9-]+:[A-Za-z0-9*]+)");

    private static final Set<String> DENIED_CODES = Set.of("AccessDenied", "AccessDeniedException",
            "UnauthorizedOperation", "UnauthorizedAccess", "AuthorizationError", "AllAccessDisabled",
            "Forbidden");

    private static final Set<String> TRANSIENT_CODES = Set.of("Throttling", "ThrottlingException",
            "ThrottledException", "RequestThrottled", "RequestThrottledException", "RequestLimitExceeded",
            "EC2ThrottledException", "SlowDown", "TooManyRequestsException", "ServiceUnavailable",
            "ServiceUnavailableException", "InternalError", "InternalFailure", "InternalServerError",
            "RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete", "ServiceFailure",
            // eventual consistency and resources still on their way somewhere:
            "DependencyViolation", "IncorrectState", "IncorrectInstanceState", "VolumeInUse",
            "InvalidGroup.NotFound", "InvalidInstanceID.NotFound", "InvalidVolume.NotFound",
            "ConcurrentModification", "ConcurrentModificationException", "OperationAborted",
            "BadRequest.IncompatibleParameterError");

    private AwsCalls() {
    }

    public static <T> T call(String action, Supplier<T> call) {
        try {
            return call.get();
        } catch (SdkException e) {
            throw classify(action, e);
        }
    }

    public static void run(String action, Runnable call) {
        call(action, () -> {
            call.run();
            return null;
        });
    }

    /** The AWS error code of {@code e}, or {@code null} when it is no service error. */
    public static String errorCode(Throwable e) {
        if (e instanceof AwsServiceException ase && ase.awsErrorDetails() != null) {
            return ase.awsErrorDetails().errorCode();
        }
        return null;
    }

    public static boolean hasCode(Throwable e, String... codes) {
        String code = errorCode(e);
        for (String c : codes) {
            if (c.equals(code)) {
                return true;
            }
        }
        return false;
    }

    public static boolean isNotFound(Throwable e) {
        return e instanceof AwsServiceException ase && ase.statusCode() == 404;
    }

    public static ProvisioningException classify(String action, SdkException e) {
        String code = errorCode(e);
        String message = e instanceof AwsServiceException ase && ase.awsErrorDetails() != null
                ? ase.awsErrorDetails().errorMessage() : e.getMessage();
        int status = e instanceof AwsServiceException ase ? ase.statusCode() : 0;
        if (code != null && DENIED_CODES.contains(code) || status == 403) {
            String denied = deniedAction(message).orElse(action);
            ProvisioningException p = new ProvisioningException(ACCESS_DENIED,
                    "Permission denied: the role Keel assumes in the customer account lacks " + denied
                            + " (AWS said " + (code == null ? "HTTP 403" : code) + ": " + message
                            + "). Update the role's policy (the console's CloudFormation template grants it).",
                    false);
            p.initCause(e);
            return p;
        }
        if (e instanceof SdkClientException || status >= 500 || status == 429
                || code != null && TRANSIENT_CODES.contains(code)
                || "InvalidParameterValue".equals(code) && message != null
                && message.contains("Invalid IAM Instance Profile")) {
            ProvisioningException p = new ProvisioningException(TRANSIENT,
                    action + " failed for now (" + (code == null ? e.getClass().getSimpleName() : code) + ": "
                            + message + "); retrying the step should succeed.", true);
            p.initCause(e);
            return p;
        }
        ProvisioningException p = new ProvisioningException("AWS_" + (code == null ? "ERROR" : code),
                action + " was refused: " + (code == null ? "" : code + ": ") + message, false);
        p.initCause(e);
        return p;
    }

    static java.util.Optional<String> deniedAction(String message) {
        if (message == null) {
            return java.util.Optional.empty();
        }
        Matcher m = DENIED_ACTION.matcher(message);
        return m.find() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
    }
}

package dev.keel.provisioner;

/**
 * A step that failed. Retryable failures (throttling, timeouts, 5xx) are tried again with backoff;
 * the others (a missing permission, an invalid request) fail the operation with {@code code}.
 */
public class ProvisioningException extends RuntimeException {

    private final String code;
    private final boolean retryable;

    public ProvisioningException(String code, String message, boolean retryable) {
        super(message);
        this.code = code;
        this.retryable = retryable;
    }

    public String code() {
        return code;
    }

    public boolean retryable() {
        return retryable;
    }
}

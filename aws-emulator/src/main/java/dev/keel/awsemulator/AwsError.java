package dev.keel.awsemulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An error answered the way AWS JSON 1.1 services answer it: HTTP 400 (unless said otherwise),
 * {@code x-amzn-ErrorType: <code>} and a body {@code {"__type": "<code>", "message": "..."}} plus the
 * error shape's modelled members (e.g. FSx's {@code IncompatibleParameterError.Parameter}), so the
 * AWS SDK raises the matching typed exception.
 */
final class AwsError extends RuntimeException {

    private final String code;
    private final int status;
    private final Map<String, String> members = new LinkedHashMap<>();

    AwsError(String code, String message) {
        this(code, 400, message);
    }

    AwsError(String code, int status, String message) {
        super(message);
        this.code = code;
        this.status = status;
    }

    /** Adds a modelled member of the error shape (for example {@code Parameter}). */
    AwsError with(String member, String value) {
        members.put(member, value);
        return this;
    }

    String code() {
        return code;
    }

    int status() {
        return status;
    }

    Map<String, String> members() {
        return members;
    }

    // Common codes of the AWS JSON protocol (not specific to one service).
    static AwsError validation(String message) {
        return new AwsError("ValidationException", message);
    }

    static AwsError serialization(String message) {
        return new AwsError("SerializationException", message);
    }
}

package dev.keel.controlplane.shared;

import java.util.List;

import org.springframework.http.HttpStatus;

/**
 * A request the API refuses, carrying what the RFC 9457 problem document says. The problem type is
 * a stable identifier clients may switch on; the detail is for people.
 */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String type;
    private final String title;
    private final List<FieldError> errors;

    protected ApiException(HttpStatus status, String type, String title, String detail, List<FieldError> errors) {
        super(detail);
        this.status = status;
        this.type = type;
        this.title = title;
        this.errors = List.copyOf(errors);
    }

    public static ApiException validation(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.getFirst().field() + ": " + errors.getFirst().message()
                : errors.size() + " fields are invalid; see errors.";
        return new ApiException(HttpStatus.BAD_REQUEST, "validation-failed", "Request is invalid", detail, errors);
    }

    public static ApiException validation(String field, String message) {
        return validation(List.of(new FieldError(field, message)));
    }

    public static ApiException notFound(String resource, Object id) {
        return new ApiException(HttpStatus.NOT_FOUND, "not-found", "Not found",
                resource + " " + id + " does not exist in this organization.", List.of());
    }

    public static ApiException conflict(String type, String detail) {
        return new ApiException(HttpStatus.CONFLICT, type, "Conflict with the current state", detail, List.of());
    }

    public static ApiException conflict(String type, String field, String detail) {
        return new ApiException(HttpStatus.CONFLICT, type, "Conflict with the current state", detail,
                List.of(new FieldError(field, detail)));
    }

    /** A change the API cannot make in place (WAL type, zone count): it needs a new instance. */
    public static ApiException replacementRequired(String field, String detail) {
        return new ApiException(HttpStatus.BAD_REQUEST, "replacement-required", "Change needs a new instance", detail,
                List.of(new FieldError(field, detail)));
    }

    public static ApiException unauthorized(String detail) {
        return new ApiException(HttpStatus.UNAUTHORIZED, "unauthenticated", "Authentication required", detail, List.of());
    }

    public static ApiException forbidden(String detail) {
        return new ApiException(HttpStatus.FORBIDDEN, "forbidden", "Not allowed", detail, List.of());
    }

    public static ApiException preconditionFailed(String detail) {
        return new ApiException(HttpStatus.PRECONDITION_FAILED, "stale-version", "Precondition failed", detail, List.of());
    }

    public static ApiException preconditionRequired(String detail) {
        return new ApiException(HttpStatus.PRECONDITION_REQUIRED, "precondition-required", "Precondition required", detail,
                List.of(new FieldError("If-Match", detail)));
    }

    /** Something the request depends on (the customer's cloud) did not answer; trying again later may work. */
    public static ApiException unavailable(String type, String detail) {
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, type, "Try again later", detail, List.of());
    }

    public static ApiException unprocessable(String type, String field, String detail) {
        return new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, type, "Request cannot be processed", detail,
                List.of(new FieldError(field, detail)));
    }

    public HttpStatus status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public List<FieldError> errors() {
        return errors;
    }
}

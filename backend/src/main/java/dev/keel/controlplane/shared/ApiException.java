package dev.keel.controlplane.shared;

import java.util.List;

/**
 * A request the API refuses, carrying what the RFC 9457 problem document says. The problem type is
 * a stable identifier clients may switch on and fixes the status; the detail is for people.
 */
public class ApiException extends RuntimeException {

    private final ProblemType type;
    private final List<FieldError> errors;

    protected ApiException(ProblemType type, String detail, List<FieldError> errors) {
        super(detail);
        this.type = type;
        this.errors = List.copyOf(errors);
    }

    public static ApiException of(ProblemType type, String detail) {
        return new ApiException(type, detail, List.of());
    }

    public static ApiException of(ProblemType type, String field, String detail) {
        return new ApiException(type, detail, List.of(new FieldError(field, detail)));
    }

    public static ApiException validation(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.getFirst().field() + ": " + errors.getFirst().message()
                : errors.size() + " fields are invalid; see errors.";
        return new ApiException(ProblemType.VALIDATION_FAILED, detail, errors);
    }

    public static ApiException validation(String field, String message) {
        return validation(List.of(new FieldError(field, message)));
    }

    public static ApiException notFound(String resource, Object id) {
        return of(ProblemType.NOT_FOUND, resource + " " + id + " does not exist in this organization.");
    }

    /** A change the API cannot make in place (WAL type, zone count): it needs a new instance. */
    public static ApiException replacementRequired(String field, String detail) {
        return of(ProblemType.REPLACEMENT_REQUIRED, field, detail);
    }

    public static ApiException preconditionRequired(String detail) {
        return of(ProblemType.PRECONDITION_REQUIRED, "If-Match", detail);
    }

    public ProblemType type() {
        return type;
    }

    public List<FieldError> errors() {
        return errors;
    }
}

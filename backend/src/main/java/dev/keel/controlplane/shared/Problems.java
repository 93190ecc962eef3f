package dev.keel.controlplane.shared;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;

import org.slf4j.MDC;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/** Builds every problem document the API sends, so they all carry the same members. */
public final class Problems {

    public static final String TYPE_PREFIX = "https://keel.dev/problems/";

    private Problems() {
    }

    public static ProblemDetail of(ProblemType type, String detail, List<FieldError> errors, String instance) {
        return of(type, type.status(), detail, errors, instance);
    }

    /** A problem whose status is not its type's own: an error the servlet container raised. */
    public static ProblemDetail of(ProblemType type, HttpStatusCode status, String detail, List<FieldError> errors,
                                   String instance) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_PREFIX + type.slug()));
        problem.setTitle(type.title());
        if (instance != null) {
            problem.setInstance(uri(instance));
        }
        String requestId = MDC.get(RequestIds.MDC_KEY);
        if (requestId != null) {
            problem.setProperty("requestId", requestId);
        }
        if (!errors.isEmpty()) {
            problem.setProperty("errors", errors);
        }
        return problem;
    }

    /** The request path as a URI reference; a path the container let through unencoded is quoted. */
    private static URI uri(String path) {
        try {
            return new URI(path);
        } catch (URISyntaxException e) {
            try {
                return new URI(null, null, path, null);
            } catch (URISyntaxException unquotable) {
                return null;
            }
        }
    }
}

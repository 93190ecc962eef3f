package dev.keel.controlplane.shared;

import java.net.URI;
import java.util.List;

import org.slf4j.MDC;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/** Builds every problem document the API sends, so they all carry the same members. */
public final class Problems {

    public static final String TYPE_PREFIX = "https://keel.dev/problems/";

    private Problems() {
    }

    public static ProblemDetail of(HttpStatusCode status, String type, String title, String detail,
                                   List<FieldError> errors, String instance) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(URI.create(TYPE_PREFIX + type));
        problem.setTitle(title);
        if (instance != null) {
            problem.setInstance(URI.create(instance));
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
}

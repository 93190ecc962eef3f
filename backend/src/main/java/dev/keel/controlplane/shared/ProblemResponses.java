package dev.keel.controlplane.shared;

import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/** Turns every refusal into an {@code application/problem+json} answer; nothing else reaches clients. */
@RestControllerAdvice
public class ProblemResponses {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ProblemDetail> api(ApiException e, HttpServletRequest request) {
        return respond(e.status(), e.type(), e.title(), e.getMessage(), e.errors(), request);
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        FieldError error = describe(e.getMostSpecificCause());
        return respond(HttpStatus.BAD_REQUEST, "validation-failed", "Request is invalid",
                error.field() + ": " + error.message(), List.of(error), request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException e, HttpServletRequest request) {
        Class<?> required = e.getRequiredType();
        String expected = required == null ? "a valid value" : switch (required.getSimpleName()) {
            case "UUID" -> "a UUID";
            case "Integer", "int", "Long", "long" -> "an integer";
            default -> required.isEnum() ? "one of " + List.of(required.getEnumConstants()) : "a valid value";
        };
        String message = "must be " + expected;
        return respond(HttpStatus.BAD_REQUEST, "validation-failed", "Request is invalid",
                e.getName() + ": " + message, List.of(new FieldError(e.getName(), message)), request);
    }

    @ExceptionHandler(MissingRequestHeaderException.class)
    ResponseEntity<ProblemDetail> missingHeader(MissingRequestHeaderException e, HttpServletRequest request) {
        return respond(HttpStatus.BAD_REQUEST, "validation-failed", "Request is invalid",
                "Header " + e.getHeaderName() + " is required.",
                List.of(new FieldError(e.getHeaderName(), "is required")), request);
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<ProblemDetail> missingParameter(MissingServletRequestParameterException e, HttpServletRequest request) {
        return respond(HttpStatus.BAD_REQUEST, "validation-failed", "Request is invalid",
                "Query parameter " + e.getParameterName() + " is required.",
                List.of(new FieldError(e.getParameterName(), "is required")), request);
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ProblemDetail> noRoute(NoResourceFoundException e, HttpServletRequest request) {
        return respond(HttpStatus.NOT_FOUND, "not-found", "Not found",
                "No resource at " + request.getRequestURI() + ".", List.of(), request);
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ProblemDetail> method(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        return respond(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed",
                request.getMethod() + " is not supported here; supported: " + e.getSupportedHttpMethods() + ".",
                List.of(), request);
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ProblemDetail> mediaType(HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        return respond(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type",
                "Send one of " + e.getSupportedMediaTypes() + ".", List.of(), request);
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<ProblemDetail> notAcceptable(HttpMediaTypeNotAcceptableException e, HttpServletRequest request) {
        return respond(HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "Not acceptable",
                "This resource is available as " + e.getSupportedMediaTypes() + ".", List.of(), request);
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
        log.error("Unhandled error on {} {}", request.getMethod(), request.getRequestURI(), e);
        return respond(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error",
                "The request failed on our side; nothing was changed that the response does not show. "
                        + "Quote the request id when you contact support.", List.of(), request);
    }

    private static ResponseEntity<ProblemDetail> respond(HttpStatus status, String type, String title, String detail,
                                                         List<FieldError> errors, HttpServletRequest request) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.of(status, type, title, detail, errors, request.getRequestURI()));
    }

    private static FieldError describe(Throwable cause) {
        if (cause instanceof UnrecognizedPropertyException unknown) {
            return new FieldError(path(unknown), "is not a known property");
        }
        if (cause instanceof InvalidFormatException invalid) {
            Class<?> target = invalid.getTargetType();
            String message = target != null && target.isEnum()
                    ? "must be one of " + List.of(target.getEnumConstants())
                    : "has the wrong type or format";
            return new FieldError(path(invalid), message);
        }
        if (cause instanceof JacksonException json && !json.getPath().isEmpty()) {
            return new FieldError(path(json), "has the wrong type or format");
        }
        return new FieldError("body", "is not a valid JSON document");
    }

    private static String path(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "body" : path.toString();
    }
}

package dev.keel.controlplane.shared;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
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
import org.springframework.web.util.DisconnectedClientHelper;

/** Turns every refusal into an {@code application/problem+json} answer; nothing else reaches clients. */
@RestControllerAdvice
public class ProblemResponses {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ProblemDetail> api(ApiException e, HttpServletRequest request) {
        return respond(e.type(), e.getMessage(), e.errors(), request);
    }

    /** A JSON body is read by {@link JsonBodies}; what is left here is a body that is missing altogether. */
    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ProblemDetail> unreadable(HttpMessageNotReadableException e, HttpServletRequest request) {
        return respond(ProblemType.VALIDATION_FAILED, "body: is required: send a JSON document",
                List.of(new FieldError("body", "is required: send a JSON document")), request);
    }

    @ExceptionHandler(MethodArgumentTypeMismatchException.class)
    ResponseEntity<ProblemDetail> typeMismatch(MethodArgumentTypeMismatchException e, HttpServletRequest request) {
        Class<?> required = e.getRequiredType();
        String expected = required == null ? "a valid value" : switch (required.getSimpleName()) {
            case "UUID" -> "a UUID";
            case "Integer", "int", "Long", "long" -> "an integer";
            case "Double", "double" -> "a finite number";
            case "Instant" -> "a date-time such as 2026-11-23T09:14:05Z";
            default -> required.isEnum() ? "one of " + List.of(required.getEnumConstants()) : "a valid value";
        };
        String message = "must be " + expected;
        return respond(ProblemType.VALIDATION_FAILED, e.getName() + ": " + message,
                List.of(new FieldError(e.getName(), message)), request);
    }

    @ExceptionHandler(MissingRequestHeaderException.class)
    ResponseEntity<ProblemDetail> missingHeader(MissingRequestHeaderException e, HttpServletRequest request) {
        return respond(ProblemType.VALIDATION_FAILED, "Header " + e.getHeaderName() + " is required.",
                List.of(new FieldError(e.getHeaderName(), "is required")), request);
    }

    @ExceptionHandler(MissingServletRequestParameterException.class)
    ResponseEntity<ProblemDetail> missingParameter(MissingServletRequestParameterException e, HttpServletRequest request) {
        return respond(ProblemType.VALIDATION_FAILED, "Query parameter " + e.getParameterName() + " is required.",
                List.of(new FieldError(e.getParameterName(), "is required")), request);
    }

    @ExceptionHandler(NoResourceFoundException.class)
    ResponseEntity<ProblemDetail> noRoute(NoResourceFoundException e, HttpServletRequest request) {
        return respond(ProblemType.NOT_FOUND, "No resource at " + request.getRequestURI() + ".", List.of(), request);
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ProblemDetail> method(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        Set<HttpMethod> supported = Objects.requireNonNullElse(e.getSupportedHttpMethods(), Set.of());
        return ResponseEntity.status(ProblemType.METHOD_NOT_ALLOWED.status())
                .allow(supported.toArray(HttpMethod[]::new))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.of(ProblemType.METHOD_NOT_ALLOWED, request.getMethod() + " is not supported here; "
                        + "supported: " + supported + ".", List.of(), request.getRequestURI()));
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ProblemDetail> mediaType(HttpMediaTypeNotSupportedException e, HttpServletRequest request) {
        return respond(ProblemType.UNSUPPORTED_MEDIA_TYPE, "Send one of " + e.getSupportedMediaTypes() + ".", List.of(),
                request);
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<ProblemDetail> notAcceptable(HttpMediaTypeNotAcceptableException e, HttpServletRequest request) {
        return respond(ProblemType.NOT_ACCEPTABLE, "This resource is available as " + e.getSupportedMediaTypes() + ".",
                List.of(), request);
    }

    /** A client that went away mid-answer (a broken pipe) is nothing wrong on our side, and there is no one left to answer. */
    @ExceptionHandler(Exception.class)
    @Nullable ResponseEntity<ProblemDetail> unexpected(Exception e, HttpServletRequest request) {
        if (DisconnectedClientHelper.isClientDisconnectedException(e)) {
            log.debug("Client went away during {} {}: {}", request.getMethod(), request.getRequestURI(), e.toString());
            return null;
        }
        log.error("Unhandled error on {} {}", request.getMethod(), request.getRequestURI(), e);
        return respond(ProblemType.INTERNAL_ERROR, "The request failed on our side; nothing was changed that the "
                + "response does not show. Quote the request id when you contact support.", List.of(), request);
    }

    private static ResponseEntity<ProblemDetail> respond(ProblemType type, String detail, List<FieldError> errors,
                                                         HttpServletRequest request) {
        return ResponseEntity.status(type.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .body(Problems.of(type, detail, errors, request.getRequestURI()));
    }
}

package dev.keel.controlplane.shared;

import java.util.Arrays;
import java.util.Optional;

import org.springframework.http.HttpStatus;

/**
 * Every kind of problem the API reports: the slug after {@link Problems#TYPE_PREFIX} is a stable
 * identifier clients switch on, so the contract lists exactly these (a test compares both ways).
 */
public enum ProblemType {

    MALFORMED_REQUEST("malformed-request", HttpStatus.BAD_REQUEST, "Request cannot be read"),
    VALIDATION_FAILED("validation-failed", HttpStatus.BAD_REQUEST, "Request is invalid"),
    REPLACEMENT_REQUIRED("replacement-required", HttpStatus.BAD_REQUEST, "Change needs a new instance"),
    UNAUTHORIZED("unauthorized", HttpStatus.UNAUTHORIZED, "Authentication required"),
    FORBIDDEN("forbidden", HttpStatus.FORBIDDEN, "Your role does not allow this"),
    NOT_A_MEMBER("not-a-member", HttpStatus.FORBIDDEN, "Not a member of this organization"),
    REGISTRATION_OTHER_BROWSER("registration-other-browser", HttpStatus.FORBIDDEN,
            "The registration belongs to another browser"),
    NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not found"),
    METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not acceptable"),
    NAME_TAKEN("name-taken", HttpStatus.CONFLICT, "The name is already taken"),
    ROLE_ARN_TAKEN("role-arn-taken", HttpStatus.CONFLICT, "The role is already registered"),
    CLOUD_ACCOUNT_IN_USE("cloud-account-in-use", HttpStatus.CONFLICT, "The cloud account is in use"),
    CLOUD_ACCOUNT_NOT_VERIFIED("cloud-account-not-verified", HttpStatus.CONFLICT, "The cloud account is not verified"),
    CLOUD_REFUSED("cloud-refused", HttpStatus.CONFLICT, "AWS refused the request"),
    OPERATION_IN_PROGRESS("operation-in-progress", HttpStatus.CONFLICT, "An operation is already in progress"),
    OPERATION_STARTED("operation-started", HttpStatus.CONFLICT, "The operation has already started"),
    INSTANCE_DELETED("instance-deleted", HttpStatus.CONFLICT, "The instance is deleted"),
    INSTANCE_NOT_RUNNING("instance-not-running", HttpStatus.CONFLICT, "The instance is not running"),
    DELETION_PROTECTED("deletion-protected", HttpStatus.CONFLICT, "The instance has deletion protection on"),
    SUBSCRIPTION_ENDED("subscription-ended", HttpStatus.CONFLICT, "The subscription is ending"),
    ENTITLEMENT_EXCEEDED("entitlement-exceeded", HttpStatus.CONFLICT, "Beyond the subscription's entitlement"),
    TRIAL_LIMIT_EXCEEDED("trial-limit-exceeded", HttpStatus.CONFLICT, "Beyond what the trial allows"),
    BUDGET_EXCEEDED("budget-exceeded", HttpStatus.CONFLICT, "Beyond the organization's budget"),
    REGISTRATION_USED("registration-used", HttpStatus.CONFLICT, "The registration was already used"),
    LICENSE_ALREADY_LINKED("license-already-linked", HttpStatus.CONFLICT,
            "The subscription is already linked to an organization"),
    SUBSCRIPTION_EXISTS("subscription-exists", HttpStatus.CONFLICT, "The organization already has a subscription"),
    LISTENER_UNAUTHENTICATED("listener-unauthenticated", HttpStatus.CONFLICT,
            "The instance's brokers authenticate nobody"),
    ACL_EXISTS("acl-exists", HttpStatus.CONFLICT, "The ACL is already recorded"),
    IDEMPOTENCY_REQUEST_IN_PROGRESS("idempotency-request-in-progress", HttpStatus.CONFLICT,
            "The first request with this key is still being processed"),
    PRECONDITION_FAILED("precondition-failed", HttpStatus.PRECONDITION_FAILED, "The instance has changed"),
    REGISTRATION_EXPIRED("registration-expired", HttpStatus.GONE, "The registration has expired"),
    PAYLOAD_TOO_LARGE("payload-too-large", HttpStatus.CONTENT_TOO_LARGE, "Request body too large"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type"),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", HttpStatus.UNPROCESSABLE_CONTENT,
            "Idempotency key reused with a different request"),
    PRECONDITION_REQUIRED("precondition-required", HttpStatus.PRECONDITION_REQUIRED, "If-Match required"),
    TOO_MANY_FAILED_AUTHENTICATIONS("too-many-failed-authentications", HttpStatus.TOO_MANY_REQUESTS,
            "Too many refused tokens from this address"),
    INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error"),
    CLOUD_UNAVAILABLE("cloud-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "AWS did not answer; try again later"),
    NODE_NOT_RECORDED("node-not-recorded", HttpStatus.SERVICE_UNAVAILABLE,
            "The node's machine is not recorded yet; try again later");

    private final String slug;
    private final HttpStatus status;
    private final String title;

    ProblemType(String slug, HttpStatus status, String title) {
        this.slug = slug;
        this.status = status;
        this.title = title;
    }

    public String slug() {
        return slug;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    /**
     * The type for an error status raised outside the API's own code (the servlet container): the
     * first type of that status, else a malformed request or an internal error.
     */
    public static ProblemType forStatus(int status) {
        Optional<ProblemType> first = Arrays.stream(values()).filter(t -> t.status.value() == status).findFirst();
        return first.orElse(status < 500 ? MALFORMED_REQUEST : INTERNAL_ERROR);
    }
}

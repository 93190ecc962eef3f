package dev.keel.marketplace.agreements;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Set;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.keel.marketplace.agreements.AgreementEvent.Kind;

/**
 * Reads an SQS message body as an agreement event. Two shapes arrive on the queue:
 * <ul>
 *   <li>an EventBridge event from {@code aws.agreement-marketplace} (a rule on the seller's default bus targets the
 *       queue): {@code detail-type} is {@code "<name> - Proposer"} or {@code "<name> - Manufacturer"} (a seller of
 *       its own listing is both, so both copies come; they are two events to the same effect);</li>
 *   <li>a legacy SNS notification of {@code aws-mp-subscription-notification} / {@code aws-mp-entitlement-notification}
 *       ({@code action}, {@code customer-identifier} or {@code CustomerIdentifier}, {@code product-code} or
 *       {@code ProductCode}), in SNS's envelope, or bare when the subscription delivers raw messages (then the SQS
 *       message's id and send time stand in for the envelope's).</li>
 * </ul>
 */
public final class AgreementMessages {

    static final String SOURCE = "aws.agreement-marketplace";
    private static final Set<String> SELLER_ROLES = Set.of("Proposer", "Manufacturer");
    private static final Map<String, Kind> DETAIL_TYPES = Map.of(
            "Purchase Agreement Created", Kind.PURCHASED,
            "Purchase Agreement Amended", Kind.AMENDED,
            "Purchase Agreement Ended", Kind.ENDED,
            "License Updated", Kind.ENTITLEMENT_CHANGED,
            "License Deprovisioned", Kind.ENDED);
    /** Agreement statuses of an ended agreement another one took over from (the buyer still buys). */
    private static final Set<String> SUCCEEDED_STATUSES = Set.of("RENEWED", "REPLACED", "SUPERSEDED");
    private static final Map<String, Kind> ACTIONS = Map.of(
            "subscribe-success", Kind.PURCHASED,
            "subscribe-fail", Kind.SUBSCRIBE_FAILED,
            "unsubscribe-pending", Kind.CANCELLING,
            "unsubscribe-success", Kind.ENDED,
            "entitlement-updated", Kind.ENTITLEMENT_CHANGED);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private AgreementMessages() {
    }

    /** Thrown for a message that is no agreement event this product acts on, with what is wrong with it. */
    public static final class UnknownMessageException extends Exception {

        UnknownMessageException(String reason) {
            super(reason);
        }
    }

    /**
     * @param messageId the SQS MessageId (the event's id when the body carries none: raw SNS delivery)
     * @param sentAt    when SQS received it (the event's time when the body carries none)
     */
    public static AgreementEvent parse(String messageId, Instant sentAt, String body) throws UnknownMessageException {
        JsonNode message;
        try {
            message = JSON.readTree(body);
        } catch (JacksonException e) {
            throw new UnknownMessageException("not JSON: " + e.getOriginalMessage());
        }
        if (message == null || !message.isObject()) {
            throw new UnknownMessageException("not a JSON object");
        }
        if (message.has("detail-type")) {
            return eventBridge(message);
        }
        if ("Notification".equals(text(message, "Type"))) {
            String inner = required(message, "Message");
            JsonNode notification;
            try {
                notification = JSON.readTree(inner);
            } catch (JacksonException e) {
                throw new UnknownMessageException("SNS Message is not JSON: " + e.getOriginalMessage());
            }
            return legacy(notification, required(message, "MessageId"), time(required(message, "Timestamp")));
        }
        if (message.has("action")) {
            return legacy(message, messageId, sentAt);
        }
        throw new UnknownMessageException("neither an EventBridge event nor an SNS notification");
    }

    private static AgreementEvent eventBridge(JsonNode event) throws UnknownMessageException {
        String source = text(event, "source");
        if (!SOURCE.equals(source)) {
            throw new UnknownMessageException("an event from " + source + ", not " + SOURCE);
        }
        String detailType = required(event, "detail-type");
        int dash = detailType.lastIndexOf(" - ");
        Kind kind = dash < 0 ? null : DETAIL_TYPES.get(detailType.substring(0, dash));
        if (kind == null || !SELLER_ROLES.contains(detailType.substring(dash + 3))) {
            throw new UnknownMessageException("detail-type \"" + detailType + "\" changes no subscription");
        }
        JsonNode detail = event.path("detail");
        String status = text(detail.path("agreement"), "status");
        if (detailType.startsWith("Purchase Agreement Ended") && SUCCEEDED_STATUSES.contains(status)) {
            kind = Kind.SUPERSEDED;
        }
        String licenseArn = text(detail.path("license"), "arn");
        String agreementId = text(detail.path("agreement"), "id");
        if (licenseArn == null && agreementId == null) {
            throw new UnknownMessageException(detailType + " names neither an agreement nor a licence");
        }
        return new AgreementEvent(required(event, "id"), kind, time(required(event, "time")),
                text(detail.path("product"), "code"), agreementId, licenseArn, text(detail.path("acceptor"), "accountId"),
                null);
    }

    private static AgreementEvent legacy(JsonNode notification, String id, Instant at) throws UnknownMessageException {
        String action = required(notification, "action");
        Kind kind = ACTIONS.get(action);
        if (kind == null) {
            throw new UnknownMessageException("action \"" + action + "\" changes no subscription");
        }
        String customer = firstOf(notification, "customer-identifier", "CustomerIdentifier");
        if (customer == null) {
            throw new UnknownMessageException(action + " names no customer-identifier");
        }
        return new AgreementEvent(id, kind, at, firstOf(notification, "product-code", "ProductCode"), null, null, null,
                customer.strip());
    }

    private static String firstOf(JsonNode node, String... names) {
        for (String name : names) {
            String value = text(node, name);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    private static String text(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value != null && value.isString() && !value.stringValue().isBlank() ? value.stringValue() : null;
    }

    private static String required(JsonNode node, String name) throws UnknownMessageException {
        String value = text(node, name);
        if (value == null) {
            throw new UnknownMessageException("no " + name);
        }
        return value;
    }

    private static Instant time(String value) throws UnknownMessageException {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new UnknownMessageException("time \"" + value + "\" is not ISO-8601");
        }
    }
}

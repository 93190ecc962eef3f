package dev.keel.marketplace.agreements;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.keel.marketplace.agreements.AgreementEvent.Kind;
import dev.keel.marketplace.agreements.AgreementMessages.UnknownMessageException;

class AgreementMessagesTest {

    private static final Instant SENT = Instant.parse("2026-11-25T10:00:09Z");
    private static final String LICENCE = "arn:aws:license-manager::294406891311:license:l-0f1e2d3c4b5a69788";

    /** An event shaped as AWS documents them (Marketplace seller guide, "Amazon EventBridge events"). */
    static String eventBridge(String id, String detailType, String time, String agreementStatus, boolean licence) {
        return """
                {"version": "0", "id": "%s", "detail-type": "%s", "source": "aws.agreement-marketplace",
                 "account": "123456512334", "time": "%s", "region": "us-east-1",
                 "resources": ["arn:aws:aws-marketplace::aws:agreement:agmt-4mwg1nevbokzw95eca5797ixs"],
                 "detail": {"requestId": "3d4c9f9b-b809-4f5e-9fac-a9ae98b05cbb", "catalog": "AWSMarketplace",
                   "agreement": {"id": "agmt-4mwg1nevbokzw95eca5797ixs"%s},
                   %s
                   "acceptor": {"accountId": "845735284135"}, "proposer": {"accountId": "123456512334"},
                   "offer": {"id": "offer-1234567890123"}}}
                """.formatted(id, detailType, time,
                agreementStatus == null ? "" : ", \"status\": \"" + agreementStatus + "\"",
                licence ? "\"product\": {\"code\": \"keel-kafka\", \"id\": \"prod-qtwveEXAMPLE\"}, "
                        + "\"license\": {\"arn\": \"" + LICENCE + "\"}," : "");
    }

    static String sns(String messageId, String timestamp, String action) {
        String inner = "{\"action\": \"" + action + "\", \"customer-identifier\": \" X01EXAMPLEX\", "
                + "\"product-code\": \"keel-kafka\", \"offer-identifier\": \"offer-abcexample123\"}";
        return """
                {"Type": "Notification", "MessageId": "%s",
                 "TopicArn": "arn:aws:sns:us-east-1:287250355862:aws-mp-subscription-notification-keel-kafka",
                 "Message": %s, "Timestamp": "%s", "SignatureVersion": "1"}
                """.formatted(messageId, quoted(inner), timestamp);
    }

    private static String quoted(String json) {
        return "\"" + json.replace("\"", "\\\"") + "\"";
    }

    @ParameterizedTest
    @CsvSource({
            "Purchase Agreement Created - Proposer,     ACTIVE,    PURCHASED",
            "Purchase Agreement Created - Manufacturer, ACTIVE,    PURCHASED",
            "Purchase Agreement Amended - Proposer,     ACTIVE,    AMENDED",
            "Purchase Agreement Ended - Proposer,       CANCELLED, ENDED",
            "Purchase Agreement Ended - Manufacturer,   EXPIRED,   ENDED",
            "Purchase Agreement Ended - Proposer,       TERMINATED, ENDED",
            "Purchase Agreement Ended - Proposer,       RENEWED,   SUPERSEDED",
            "Purchase Agreement Ended - Proposer,       REPLACED,  SUPERSEDED",
    })
    void readsEachAgreementEvent(String detailType, String status, Kind kind) throws Exception {
        AgreementEvent event = AgreementMessages.parse("sqs-1", SENT,
                eventBridge("ev-1", detailType, "2026-11-25T10:00:03Z", status, false));

        assertThat(event).isEqualTo(new AgreementEvent("ev-1", kind, Instant.parse("2026-11-25T10:00:03Z"), null,
                "agmt-4mwg1nevbokzw95eca5797ixs", null, "845735284135", null));
    }

    @ParameterizedTest
    @CsvSource({"License Updated - Manufacturer, ENTITLEMENT_CHANGED", "License Deprovisioned - Manufacturer, ENDED"})
    void readsEachLicenceEvent(String detailType, Kind kind) throws Exception {
        AgreementEvent event = AgreementMessages.parse("sqs-1", SENT,
                eventBridge("ev-2", detailType, "2026-11-25T10:00:04Z", null, true));

        assertThat(event).isEqualTo(new AgreementEvent("ev-2", kind, Instant.parse("2026-11-25T10:00:04Z"),
                "keel-kafka", "agmt-4mwg1nevbokzw95eca5797ixs", LICENCE, "845735284135", null));
    }

    @ParameterizedTest
    @CsvSource({
            "subscribe-success,   PURCHASED",
            "subscribe-fail,      SUBSCRIBE_FAILED",
            "unsubscribe-pending, CANCELLING",
            "unsubscribe-success, ENDED",
            "entitlement-updated, ENTITLEMENT_CHANGED",
    })
    void readsEachLegacyNotificationInItsSnsEnvelope(String action, Kind kind) throws Exception {
        AgreementEvent event = AgreementMessages.parse("sqs-1", SENT,
                sns("0f1e2d3c-sns", "2026-11-25T10:00:05.120Z", action));

        assertThat(event).isEqualTo(new AgreementEvent("0f1e2d3c-sns", kind, Instant.parse("2026-11-25T10:00:05.120Z"),
                "keel-kafka", null, null, null, "X01EXAMPLEX"));
    }

    @Test
    void readsARawLegacyNotificationWithTheQueuesIdAndTime() throws Exception {
        AgreementEvent event = AgreementMessages.parse("sqs-7", SENT,
                "{\"action\": \"entitlement-updated\", \"CustomerIdentifier\": \"X01EXAMPLEX\", \"ProductCode\": \"keel-kafka\"}");

        assertThat(event).isEqualTo(new AgreementEvent("sqs-7", Kind.ENTITLEMENT_CHANGED, SENT, "keel-kafka", null,
                null, null, "X01EXAMPLEX"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "not json at all                                                                   | not JSON",
            "[1, 2]                                                                            | not a JSON object",
            "{\"hello\": 1}                                                                    | neither an EventBridge event nor an SNS notification",
            "{\"id\": \"e\", \"detail-type\": \"Offer Released\", \"source\": \"aws.marketplacecatalog\"} | an event from aws.marketplacecatalog",
            "{\"action\": \"subscribe-success\"}                                               | names no customer-identifier",
            "{\"action\": \"renamed\", \"customer-identifier\": \"X\"}                         | action \"renamed\" changes no subscription",
            "{\"Type\": \"Notification\", \"MessageId\": \"m\", \"Timestamp\": \"2026-11-25T10:00:00Z\", \"Message\": \"oops\"} | SNS Message is not JSON",
    })
    void reportsWhatItCannotRead(String body, String reason) {
        assertThatThrownBy(() -> AgreementMessages.parse("sqs-1", SENT, body))
                .isInstanceOf(UnknownMessageException.class).hasMessageContaining(reason);
    }

    @ParameterizedTest
    @CsvSource({"Purchase Agreement Created - Acceptor", "Purchase Agreement Ending - Proposer",
            "Agreement Cancellation Request Approved - Proposer"})
    void reportsAgreementEventsThatChangeNoSubscription(String detailType) {
        assertThatThrownBy(() -> AgreementMessages.parse("sqs-1", SENT,
                eventBridge("ev-3", detailType, "2026-11-25T10:00:03Z", "ACTIVE", false)))
                .isInstanceOf(UnknownMessageException.class).hasMessageContaining("changes no subscription");
    }

    @Test
    void reportsAnEventWithoutATime() {
        String body = eventBridge("ev-4", "License Updated - Manufacturer", "yesterday", null, true);

        assertThatThrownBy(() -> AgreementMessages.parse("sqs-1", SENT, body))
                .isInstanceOf(UnknownMessageException.class).hasMessageContaining("not ISO-8601");
    }
}

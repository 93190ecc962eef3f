package dev.keel.controlplane.billing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.marketplace.agreements.AgreementEvent;
import dev.keel.marketplace.agreements.AgreementEvent.Kind;
import dev.keel.marketplace.agreements.ReadMessage;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import tools.jackson.databind.JsonNode;

/**
 * Agreement events applied to the organization's subscription and what {@code GET /billing/subscription} shows of
 * it: against the test stack's PostgreSQL, LocalStack's agreement-event queue (read by the backend's poller) and the
 * AWS API emulator's Marketplace (GetEntitlements; its buyers send their purchase and cancellation to the queue).
 */
class SubscriptionApiTest extends ApiTest {

    /** The local profile's listing. */
    private static final String PRODUCT = "keel-local-development";

    @Autowired
    private SubscriptionAgreements agreements;
    @Autowired
    private ApplicationEventPublisher publisher;
    @Autowired
    private JdbcClient jdbc;

    @BeforeEach
    @AfterEach
    void noSubscriptions() {
        Database.withoutSubscriptions("acme", "globex");
    }

    @Test
    void anOrganizationWithoutASubscriptionIsOnTheTrial() {
        JsonNode answer = api(OTHER_ORG_ADMIN).get("/billing/subscription").json();

        assertThat(answer.get("plan").asString()).isEqualTo("TRIAL");
        assertThat(answer.get("subscription").isNull()).isTrue();
    }

    @Test
    void eventsThatCameBeforeTheLinkApplyWhenItIsMade() throws Exception {
        String licence = licence();
        seedBuyer(licence, null, 12, false);
        Instant bought = Instant.now().minusSeconds(600).truncatedTo(ChronoUnit.SECONDS);
        String agreement = "agmt-" + UUID.randomUUID().toString().substring(0, 8);
        agreements.record(List.of(
                read(new AgreementEvent(id(), Kind.PURCHASED, bought, null, agreement, null, "294406891311", null)),
                read(new AgreementEvent(id(), Kind.ENTITLEMENT_CHANGED, bought.plusSeconds(1), PRODUCT, agreement,
                        licence, "294406891311", null))));
        agreements.applyWaiting();
        assertThat(waiting(agreement)).as("no subscription to apply them to yet").isEqualTo(2);

        UUID subscription = link(ADMIN, licence, null);

        JsonNode shown = api(VIEWER).get("/billing/subscription").json();
        assertThat(shown.get("plan").asString()).isEqualTo("MARKETPLACE");
        JsonNode s = shown.get("subscription");
        assertThat(s.get("state").asString()).isEqualTo("ACTIVE");
        assertThat(s.get("licenseArn").asString()).isEqualTo(licence);
        assertThat(s.get("customerAwsAccountId").asString()).isEqualTo("294406891311");
        assertThat(s.get("productCode").asString()).isEqualTo(PRODUCT);
        assertThat(Instant.parse(s.get("stateChangedAt").asString())).as("when AWS says it was bought").isEqualTo(bought);
        assertThat(s.get("entitlement").get("maxAku").asInt()).isEqualTo(12);
        assertThat(s.get("entitlement").get("payAsYouGo").asBoolean()).isFalse();
        assertThat(s.get("endedAt").isNull()).isTrue();
        assertThat(waiting(agreement)).isZero();
        assertThat(audited(subscription)).contains("subscription.active", "subscription.entitlement");
    }

    @Test
    void aShuffledStoryDeliveredTwiceEndsTheSame() {
        String licence = licence();
        seedBuyer(licence, null, 6, false);
        UUID subscription = link(ADMIN, licence, null);
        Instant t = Instant.now().minusSeconds(7200).truncatedTo(ChronoUnit.SECONDS);
        String agreement = "agmt-" + UUID.randomUUID().toString().substring(0, 8);
        List<AgreementEvent> story = List.of(
                new AgreementEvent(id(), Kind.PURCHASED, t, null, agreement, null, "294406891311", null),
                new AgreementEvent(id(), Kind.ENTITLEMENT_CHANGED, t.plusSeconds(1), PRODUCT, agreement, licence,
                        "294406891311", null),
                new AgreementEvent(id(), Kind.AMENDED, t.plusSeconds(600), null, agreement, null, "294406891311", null),
                new AgreementEvent(id(), Kind.CANCELLING, t.plusSeconds(900), null, agreement, null, "294406891311",
                        null),
                new AgreementEvent(id(), Kind.ENDED, t.plusSeconds(1200), null, agreement, null, "294406891311", null),
                new AgreementEvent(id(), Kind.ENDED, t.plusSeconds(1260), PRODUCT, agreement, licence, "294406891311",
                        null));
        List<AgreementEvent> delivered = new ArrayList<>(story);
        delivered.addAll(story);
        Collections.shuffle(delivered, new Random(3));

        for (AgreementEvent event : delivered) {
            agreements.record(List.of(read(event)));
            agreements.applyWaiting();
        }

        JsonNode s = api(VIEWER).get("/billing/subscription").json().get("subscription");
        assertThat(s.get("state").asString()).isEqualTo("ENDED");
        assertThat(Instant.parse(s.get("endedAt").asString())).as("the agreement's end, not its licence's")
                .isEqualTo(t.plusSeconds(1200));
        assertThat(Instant.parse(s.get("graceEndsAt").asString())).isEqualTo(t.plusSeconds(1200).plus(Duration.ofDays(7)));
        assertThat(jdbc.sql("SELECT count(*) FROM marketplace_agreement_events WHERE subscription_id = ?")
                .param(subscription).query(Integer.class).single()).as("each event recorded once").isEqualTo(6);
        assertThat(waiting(agreement)).isZero();
    }

    @Test
    void aLegacyBuyerIsFollowedByItsSnsNotifications() {
        String customer = "cust-" + UUID.randomUUID().toString().substring(0, 8);
        seedBuyer(null, customer, null, false);
        link(ADMIN, null, customer);
        Instant t = Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.SECONDS);

        agreements.record(List.of(
                read(new AgreementEvent(id(), Kind.PURCHASED, t, PRODUCT, null, null, null, customer)),
                read(new AgreementEvent(id(), Kind.CANCELLING, t.plusSeconds(30), PRODUCT, null, null, null, customer)),
                read(new AgreementEvent(id(), Kind.ENTITLEMENT_CHANGED, t.plusSeconds(1), PRODUCT, null, null, null,
                        customer))));
        agreements.applyWaiting();

        JsonNode s = api(VIEWER).get("/billing/subscription").json().get("subscription");
        assertThat(s.get("state").asString()).isEqualTo("CANCELLING");
        assertThat(s.get("customerIdentifier").asString()).isEqualTo(customer);
        assertThat(s.get("entitlement").get("payAsYouGo").asBoolean()).as("no aku dimension").isTrue();
        assertThat(s.get("entitlement").get("maxAku").isNull()).isTrue();
    }

    @Test
    void aPurchaseAndACancellationOnTheQueueMoveTheSubscriptionByThemselves() {
        String licence = licence();
        UUID subscription = link(ADMIN, licence, null);
        String token = seedBuyer(licence, null, 9, true);

        JsonNode active = api(VIEWER).await("/billing/subscription",
                a -> "ACTIVE".equals(a.at("/subscription/state").asString())
                        && a.at("/subscription/entitlement/maxAku").asInt() == 9, Duration.ofSeconds(30));
        assertThat(active.at("/subscription/licenseArn").asString()).isEqualTo(licence);

        emulator("/_emulator/marketplace/customers/cancel", "{\"registrationToken\": \"" + token + "\"}");
        JsonNode ended = api(VIEWER).await("/billing/subscription",
                a -> "ENDED".equals(a.at("/subscription/state").asString()), Duration.ofSeconds(30));
        assertThat(ended.at("/subscription/endedAt").isNull()).isFalse();
        assertThat(audited(subscription)).contains("subscription.active", "subscription.ended");
    }

    @Test
    void aMessageThatIsNoAgreementEventIsKeptAsideNotReadAgain() {
        String body = "{\"note\": \"" + UUID.randomUUID() + "\"}";
        try (SqsClient sqs = SqsClient.builder().endpointOverride(URI.create(TestEnvironment.require("KEEL_AWS_ENDPOINT")))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build()) {
            sqs.sendMessage(r -> r.queueUrl(TestEnvironment.require("KEEL_MARKETPLACE_QUEUE_URL")).messageBody(body));
        }

        Instant deadline = Instant.now().plusSeconds(30);
        int kept = 0;
        while (kept == 0 && Instant.now().isBefore(deadline)) {
            kept = jdbc.sql("SELECT count(*) FROM marketplace_unknown_messages WHERE body = ?").param(body)
                    .query(Integer.class).single();
        }
        assertThat(kept).isEqualTo(1);
        assertThat(jdbc.sql("SELECT reason FROM marketplace_unknown_messages WHERE body = ?").param(body)
                .query(String.class).single()).contains("neither an EventBridge event nor an SNS notification");
    }

    /** Links a subscription to the user's organization as the registration does: PENDING, then the event. */
    private UUID link(String user, String licence, String customer) {
        UUID organization = UUID.fromString(api(user).get("/organizations/me").json().get("id").asString());
        UUID id = UUID.randomUUID();
        jdbc.sql("""
                        INSERT INTO marketplace_subscriptions (id, organization_id, product_code, customer_aws_account_id,
                                                               license_arn, customer_identifier, state, state_event_at)
                        VALUES (?, ?, ?, '294406891311', ?, ?, 'PENDING', ?)
                        """)
                .params(id, organization, PRODUCT, licence, customer, Timestamp.from(Instant.now())).update();
        publisher.publishEvent(new SubscriptionLinked(id, organization));
        return id;
    }

    /** Seeds the buyer in the emulator's Marketplace; {@code announce}: it sends its purchase to the queue. */
    private static String seedBuyer(String licence, String customer, Integer aku, boolean announce) {
        String token = "t-" + UUID.randomUUID();
        emulator("/_emulator/marketplace/customers", """
                {"registrationToken": "%s", "productCode": "%s", "customerAWSAccountId": "294406891311",
                 "licenseArn": %s, "customerIdentifier": %s, "subscribed": %s, "entitlements": [%s]}
                """.formatted(token, PRODUCT, json(licence), json(customer), announce,
                aku == null ? "" : "{\"dimension\": \"aku\", \"value\": " + aku + "}"));
        return token;
    }

    private static String json(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }

    private static void emulator(String path, String body) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                                    URI.create(TestEnvironment.require("KEEL_MARKETPLACE_ENDPOINT")).resolve(path))
                            .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private int waiting(String agreement) {
        return jdbc.sql("SELECT count(*) FROM marketplace_agreement_events WHERE agreement_id = ? AND applied_at IS NULL")
                .param(agreement).query(Integer.class).single();
    }

    private List<String> audited(UUID subscription) {
        return jdbc.sql("SELECT action FROM audit_events WHERE resource_type = 'subscription' AND resource_id = ?")
                .param(subscription.toString()).query(String.class).list();
    }

    private static String licence() {
        return "arn:aws:license-manager::294406891311:license:l-" + UUID.randomUUID().toString().replace("-", "");
    }

    private static String id() {
        return UUID.randomUUID().toString();
    }

    private static ReadMessage read(AgreementEvent event) {
        return new ReadMessage.Event("sqs-" + event.id(), "receipt", event);
    }
}

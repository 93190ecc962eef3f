package dev.keel.marketplace.metering;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.keel.marketplace.EmulatorThrottles;
import dev.keel.marketplace.MarketplaceClients;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.keel.marketplace.metering.MeteringOutcome.Status.ACCEPTED;
import static dev.keel.marketplace.metering.MeteringOutcome.Status.CUSTOMER_NOT_SUBSCRIBED;
import static dev.keel.marketplace.metering.MeteringOutcome.Status.DUPLICATE;
import static dev.keel.marketplace.metering.MeteringOutcome.Status.FAILED;
import static dev.keel.marketplace.metering.MeteringOutcome.Status.RETRY;
import static dev.keel.marketplace.metering.MeteringOutcome.Status.UNSENT;
import static org.assertj.core.api.Assertions.assertThat;

/** BatchMeterUsage through the real SDK client against the test stack's AWS API emulator, which keeps AWS's rules. */
class UsageMeterIT {

    private static final String ENDPOINT = System.getenv().getOrDefault("KEEL_MARKETPLACE_ENDPOINT", "http://localhost:24577");
    private static final String DIMENSION = "aku_minutes";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final AtomicInteger CALLS = new AtomicInteger();
    /** Time enough to send anything these tests send. */
    private static final Duration ENOUGH = Duration.ofMinutes(5);

    private static MarketplaceClients clients;
    private static UsageMeter meter;
    private static String product;

    @BeforeAll
    static void connect() {
        ExecutionInterceptor countCalls = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                CALLS.incrementAndGet();
            }
        };
        clients = new MarketplaceClients(new MarketplaceClients.Endpoints(URI.create(ENDPOINT), null),
                MarketplaceClients.MARKETPLACE_REGION,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")), List.of(countCalls));
        product = "prod-" + UUID.randomUUID().toString().substring(0, 8);
        meter = new UsageMeter(clients.metering(), product);
    }

    @AfterAll
    static void close() {
        clients.close();
    }

    @Test
    void thirtyRecordsGoInTwoCallsEachWithItsLicence() throws Exception {
        List<UsageRecord> records = new ArrayList<>();
        List<Buyer> buyers = new ArrayList<>();
        for (int b = 0; b < 6; b++) {
            buyers.add(Buyer.seeded(true));
        }
        for (Buyer buyer : buyers) {
            for (int h = 1; h <= 5; h++) {
                records.add(buyer.usage(hoursAgo(h), h * 3));
            }
        }
        int before = CALLS.get();

        Map<UsageRecord, MeteringOutcome> outcomes = meter.send(records, ENOUGH);

        assertThat(CALLS.get() - before).as("BatchMeterUsage calls").isEqualTo(2);
        assertThat(outcomes).hasSize(30);
        assertThat(outcomes.values()).allSatisfy(o -> {
            assertThat(o.status()).isEqualTo(ACCEPTED);
            assertThat(o.meteringRecordId()).isNotBlank();
        });
        for (Buyer buyer : buyers) {
            List<JsonNode> received = received(buyer.customerIdentifier);
            assertThat(received).hasSize(5).allSatisfy(r -> {
                assertThat(r.get("licenseArn").asString()).isEqualTo(buyer.licenseArn);
                assertThat(r.get("customerAWSAccountId").asString()).isEqualTo(buyer.account);
                assertThat(r.get("dimension").asString()).isEqualTo(DIMENSION);
            });
        }
    }

    @Test
    void anIdenticalResendIsAcceptedAgainAndADifferentQuantityIsADuplicate() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        UsageRecord first = buyer.usage(hoursAgo(2), 6);
        String id = meter.send(List.of(first), ENOUGH).get(first).meteringRecordId();

        UsageRecord same = buyer.usage(hoursAgo(2), 6);
        UsageRecord other = buyer.usage(hoursAgo(2), 7);
        MeteringOutcome resent = meter.send(List.of(same), ENOUGH).get(same);
        MeteringOutcome different = meter.send(List.of(other), ENOUGH).get(other);

        assertThat(resent).isEqualTo(new MeteringOutcome(ACCEPTED, id, null));
        assertThat(different.status()).isEqualTo(DUPLICATE);
        List<JsonNode> received = received(buyer.customerIdentifier);
        assertThat(received).hasSize(1);
        assertThat(received.getFirst().get("quantity").asInt()).isEqualTo(6);
        assertThat(received.getFirst().get("receipts").asInt()).isEqualTo(2);
    }

    @Test
    void aBuyerWithoutAgreementOrWithAnotherLicenceIsNotSubscribed() throws Exception {
        Buyer unsubscribed = Buyer.seeded(false);
        Buyer subscribed = Buyer.seeded(true);
        UsageRecord lapsed = unsubscribed.usage(hoursAgo(1), 3);
        UsageRecord otherLicence = new UsageRecord(subscribed.account, subscribed.licenseArn + "-other", null, DIMENSION,
                hoursAgo(1), 3);

        Map<UsageRecord, MeteringOutcome> outcomes = meter.send(List.of(lapsed, otherLicence), ENOUGH);

        assertThat(outcomes.get(lapsed).status()).isEqualTo(CUSTOMER_NOT_SUBSCRIBED);
        assertThat(outcomes.get(otherLicence).status()).isEqualTo(CUSTOMER_NOT_SUBSCRIBED);
        assertThat(received(subscribed.customerIdentifier)).isEmpty();
    }

    @Test
    void anHourOlderThanSixHoursFailsWithAwssMessage() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        UsageRecord late = buyer.usage(hoursAgo(7), 3);

        MeteringOutcome outcome = meter.send(List.of(late), ENOUGH).get(late);

        assertThat(outcome.status()).isEqualTo(FAILED);
        assertThat(outcome.message()).startsWith("TimestampOutOfBoundsException");
        assertThat(received(buyer.customerIdentifier)).isEmpty();
    }

    @Test
    void aRecordAwsLeavesUnprocessedIsToBeSentAgainWhileTheRestOfTheCallIsAccepted() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        UsageRecord recent = buyer.usage(hoursAgo(1), 3);
        UsageRecord late = buyer.usage(hoursAgo(7), 3);

        Map<UsageRecord, MeteringOutcome> outcomes = meter.send(List.of(recent, late), ENOUGH);

        assertThat(outcomes.get(recent).status()).isEqualTo(ACCEPTED);
        assertThat(outcomes.get(late).status()).isEqualTo(RETRY);
        assertThat(received(buyer.customerIdentifier)).hasSize(1);
    }

    @Test
    void aRecordAwsRefusesFailsAloneAndTheOthersOfItsCallAreAccepted() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        UsageRecord good = buyer.usage(hoursAgo(1), 3);
        UsageRecord bad = new UsageRecord(buyer.account, buyer.licenseArn, null, "", hoursAgo(2), 3);

        Map<UsageRecord, MeteringOutcome> outcomes = meter.send(List.of(good, bad), ENOUGH);

        assertThat(outcomes.get(good).status()).isEqualTo(ACCEPTED);
        assertThat(outcomes.get(bad).status()).isEqualTo(FAILED);
        assertThat(outcomes.get(bad).message()).startsWith("ValidationException");
        assertThat(received(buyer.customerIdentifier)).hasSize(1);
    }

    @Test
    void aThrottledCallIsSentAgainByTheSdkAndTheHourIsMeteredOnce() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        UsageRecord hour = buyer.usage(hoursAgo(1), 4);
        EmulatorThrottles caller = new EmulatorThrottles(URI.create(ENDPOINT));
        caller.throttle("BatchMeterUsage", 1);

        AtomicInteger attempts = new AtomicInteger();
        Map<UsageRecord, MeteringOutcome> outcomes;
        try (MarketplaceClients own = caller.clients(new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                attempts.incrementAndGet();
            }
        })) {
            outcomes = new UsageMeter(own.metering(), product).send(List.of(hour), ENOUGH);
        }

        assertThat(attempts).as("one throttled attempt, then the SDK's retry").hasValue(2);
        assertThat(outcomes.get(hour).status()).isEqualTo(ACCEPTED);
        List<JsonNode> received = received(buyer.customerIdentifier);
        assertThat(received).hasSize(1);
        assertThat(received.getFirst().get("receipts").asInt()).as("the throttled call was not taken").isEqualTo(1);
    }

    @Test
    void throttlingBeyondTheSdksRetriesLeavesEveryRecordOfTheCallToSendAgain() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        UsageRecord first = buyer.usage(hoursAgo(1), 2);
        UsageRecord second = buyer.usage(hoursAgo(2), 2);
        EmulatorThrottles caller = new EmulatorThrottles(URI.create(ENDPOINT));
        caller.throttle("BatchMeterUsage", 100);

        Map<UsageRecord, MeteringOutcome> outcomes = meterAs(caller, List.of(first, second));

        assertThat(outcomes.values()).allSatisfy(outcome -> {
            assertThat(outcome.status()).isEqualTo(RETRY);
            assertThat(outcome.message()).contains("ThrottlingException");
        });
        assertThat(received(buyer.customerIdentifier)).isEmpty();
        caller.throttle("BatchMeterUsage", 0);
        assertThat(meterAs(caller, List.of(first, second)).values()).extracting(MeteringOutcome::status)
                .containsOnly(ACCEPTED);
    }

    @Test
    void recordsWhoseCallWouldStartAfterTheTimeGivenAreNotSent() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        List<UsageRecord> records = List.of(buyer.usage(hoursAgo(1), 3), buyer.usage(hoursAgo(2), 3));
        int before = CALLS.get();

        Map<UsageRecord, MeteringOutcome> outcomes = meter.send(records, Duration.ZERO);

        assertThat(outcomes.values()).extracting(MeteringOutcome::status).containsExactly(UNSENT, UNSENT);
        assertThat(CALLS.get() - before).as("BatchMeterUsage calls").isZero();
        assertThat(received(buyer.customerIdentifier)).isEmpty();
    }

    @Test
    void aLegacyBuyerIsMeteredByCustomerIdentifierUnderTheProductCode() throws Exception {
        Buyer buyer = Buyer.seeded(true);
        UsageRecord legacy = new UsageRecord(null, null, buyer.customerIdentifier, DIMENSION, hoursAgo(3), 9);

        MeteringOutcome outcome = meter.send(List.of(legacy), ENOUGH).get(legacy);

        assertThat(outcome.status()).isEqualTo(ACCEPTED);
        List<JsonNode> received = received(buyer.customerIdentifier);
        assertThat(received).hasSize(1);
        assertThat(received.getFirst().has("licenseArn")).isFalse();
        assertThat(received.getFirst().get("productCode").asString()).isEqualTo(product);
    }

    private static Instant hoursAgo(int hours) {
        return Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(hours));
    }

    /** Sends through the throttled caller's own clients. */
    private static Map<UsageRecord, MeteringOutcome> meterAs(EmulatorThrottles caller, List<UsageRecord> records) {
        try (MarketplaceClients own = caller.clients()) {
            return new UsageMeter(own.metering(), product).send(records, ENOUGH);
        }
    }

    private static List<JsonNode> received(String customerIdentifier) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(ENDPOINT
                + "/_emulator/marketplace/meter-records?productCode=" + product + "&customerIdentifier=" + customerIdentifier))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> records = new ArrayList<>();
        JSON.readTree(response.body()).get("records").forEach(records::add);
        return records;
    }

    /** A buyer seeded in the emulator, with an account and a licence of its own. */
    private record Buyer(String customerIdentifier, String account, String licenseArn) {

        static Buyer seeded(boolean subscribed) throws Exception {
            String unique = UUID.randomUUID().toString().replace("-", "");
            String account = String.valueOf(100_000_000_000L + (Math.abs(unique.hashCode()) % 899_999_999_999L));
            Buyer buyer = new Buyer("cust-" + unique.substring(0, 12), account,
                    "arn:aws:license-manager::" + account + ":license:l-" + unique.substring(0, 20));
            String body = JSON.writeValueAsString(Map.of("registrationToken", "t-" + unique, "productCode", product,
                    "customerIdentifier", buyer.customerIdentifier, "customerAWSAccountId", account,
                    "licenseArn", buyer.licenseArn, "subscribed", subscribed));
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(ENDPOINT
                            + "/_emulator/marketplace/customers")).POST(HttpRequest.BodyPublishers.ofString(body))
                    .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            return buyer;
        }

        UsageRecord usage(Instant hour, int quantity) {
            return new UsageRecord(account, licenseArn, null, DIMENSION, hour, quantity);
        }
    }
}

package dev.keel.awsemulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.marketplaceentitlement.MarketplaceEntitlementClient;
import software.amazon.awssdk.services.marketplaceentitlement.model.Entitlement;
import software.amazon.awssdk.services.marketplaceentitlement.model.GetEntitlementFilterName;
import software.amazon.awssdk.services.marketplaceentitlement.model.GetEntitlementsResponse;
import software.amazon.awssdk.services.marketplaceentitlement.model.InvalidParameterException;
import software.amazon.awssdk.services.marketplacemetering.MarketplaceMeteringClient;
import software.amazon.awssdk.services.marketplacemetering.model.BatchMeterUsageResponse;
import software.amazon.awssdk.services.marketplacemetering.model.DuplicateRequestException;
import software.amazon.awssdk.services.marketplacemetering.model.ExpiredTokenException;
import software.amazon.awssdk.services.marketplacemetering.model.InvalidTokenException;
import software.amazon.awssdk.services.marketplacemetering.model.MarketplaceMeteringException;
import software.amazon.awssdk.services.marketplacemetering.model.ResolveCustomerResponse;
import software.amazon.awssdk.services.marketplacemetering.model.TimestampOutOfBoundsException;
import software.amazon.awssdk.services.marketplacemetering.model.UsageRecord;
import software.amazon.awssdk.services.marketplacemetering.model.UsageRecordResult;
import software.amazon.awssdk.services.marketplacemetering.model.UsageRecordResultStatus;
import tools.jackson.databind.JsonNode;

/** Drives the emulator's AWS Marketplace Metering and Entitlement with the real AWS SDK clients. */
class MarketplaceEmulatorTest {

    private static final String PRODUCT = "keel-saas-product";
    private static AwsApiEmulator emulator;
    private static MarketplaceMeteringClient metering;
    private static MarketplaceEntitlementClient entitlement;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        emulator = AwsApiEmulator.start(AwsApiEmulator.Options.defaults().withPort(0));
        metering = SdkClients.metering(emulator.endpoint());
        entitlement = SdkClients.entitlement(emulator.endpoint());
    }

    @AfterAll
    static void stop() {
        metering.close();
        entitlement.close();
        emulator.close();
    }

    @BeforeEach
    void seed() throws Exception {
        admin("POST", "/_emulator/reset", "");
        admin("POST", "/_emulator/marketplace/customers", """
                {"registrationToken": "token-acme", "productCode": "%s", "customerIdentifier": "cust-acme",
                 "customerAWSAccountId": "111122223333",
                 "entitlements": [{"dimension": "aku", "value": 12},
                                  {"dimension": "support", "value": "enterprise"},
                                  {"dimension": "old", "value": true, "expirationDate": "2020-01-01T00:00:00Z"}]}
                """.formatted(PRODUCT));
        admin("POST", "/_emulator/marketplace/customers", """
                {"registrationToken": "token-globex", "productCode": "%s", "customerIdentifier": "cust-globex",
                 "customerAWSAccountId": "444455556666", "entitlements": [{"dimension": "aku", "value": 3}]}
                """.formatted(PRODUCT));
        admin("POST", "/_emulator/marketplace/customers", """
                {"registrationToken": "token-gone", "productCode": "%s", "customerIdentifier": "cust-gone",
                 "subscribed": false}
                """.formatted(PRODUCT));
    }

    private static JsonNode admin(String method, String path, String body) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(emulator.endpoint().resolve(path))
                .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isBetween(200, 299);
        return Json.MAPPER.readTree(response.body());
    }

    private static UsageRecord record(String customer, String dimension, int quantity, Instant timestamp) {
        return UsageRecord.builder().customerIdentifier(customer).dimension(dimension).quantity(quantity)
                .timestamp(timestamp).build();
    }

    @Test
    void resolveCustomerAnswersTheSeededCustomer() {
        ResolveCustomerResponse resolved = metering.resolveCustomer(r -> r.registrationToken("token-acme"));

        assertThat(resolved.customerIdentifier()).isEqualTo("cust-acme");
        assertThat(resolved.customerAWSAccountId()).isEqualTo("111122223333");
        assertThat(resolved.productCode()).isEqualTo(PRODUCT);
    }

    @Test
    void aThrottledCallerIsAnsweredThrottlingForTheCallsArmedAndThenServed() throws Exception {
        admin("POST", "/_emulator/throttles", """
                {"accessKeyId": "test", "operation": "ResolveCustomer", "calls": 2}
                """);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> metering.resolveCustomer(r -> r.registrationToken("token-acme")))
                    .isInstanceOfSatisfying(MarketplaceMeteringException.class, e -> {
                        assertThat(e.isThrottlingException()).as("the SDK sees throttling").isTrue();
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
                    });
        }
        assertThat(metering.resolveCustomer(r -> r.registrationToken("token-acme")).customerIdentifier())
                .isEqualTo("cust-acme");

        admin("POST", "/_emulator/throttles", """
                {"accessKeyId": "someone-else", "operation": "ResolveCustomer", "calls": 5}
                """);
        assertThat(metering.resolveCustomer(r -> r.registrationToken("token-acme")).customerIdentifier())
                .as("another caller's throttle").isEqualTo("cust-acme");
        HttpResponse<String> refused = HTTP.send(HttpRequest.newBuilder(emulator.endpoint().resolve("/_emulator/throttles"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"operation\": \"ResolveCustomer\", \"calls\": -1}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("accessKeyId");
    }

    @Test
    void resolveCustomerRejectsAnUnknownToken() {
        assertThatThrownBy(() -> metering.resolveCustomer(r -> r.registrationToken("forged")))
                .isInstanceOfSatisfying(InvalidTokenException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidTokenException");
                });
    }

    @Test
    void aMintedTokenResolvesToANewBuyerWithALicence() throws Exception {
        JsonNode minted = admin("POST", "/_emulator/marketplace/registrations", """
                {"productCode": "%s", "entitlements": [{"dimension": "aku", "value": 24}]}
                """.formatted(PRODUCT));
        JsonNode other = admin("POST", "/_emulator/marketplace/registrations", """
                {"productCode": "%s"}
                """.formatted(PRODUCT));

        ResolveCustomerResponse resolved = metering.resolveCustomer(r -> r.registrationToken(
                minted.get("registrationToken").stringValue()));
        assertThat(resolved.customerAWSAccountId()).matches("[0-9]{12}")
                .isEqualTo(minted.get("customerAWSAccountId").stringValue())
                .isNotEqualTo(other.get("customerAWSAccountId").stringValue());
        // The SDK's model predates LicenseArn in ResolveCustomer; the licence is the one minted (the library reads it
        // off the wire, MarketplaceCustomersIT).
        String licence = minted.get("licenseArn").stringValue();
        assertThat(licence).matches("arn:aws:license-manager::[0-9]{12}:license:l-[0-9a-f]{32}")
                .isNotEqualTo(other.get("licenseArn").stringValue());
        assertThat(resolved.productCode()).isEqualTo(PRODUCT);
        assertThat(minted.get("registrationToken").stringValue())
                .isNotEqualTo(other.get("registrationToken").stringValue());
        List<Entitlement> entitled = entitlement.getEntitlements(r -> r.productCode(PRODUCT).filter(
                Map.of(GetEntitlementFilterName.CUSTOMER_AWS_ACCOUNT_ID, List.of(resolved.customerAWSAccountId()))))
                .entitlements();
        assertThat(entitled).singleElement().satisfies(e -> assertThat(e.value().integerValue()).isEqualTo(24));
    }

    @Test
    void aMintedTokenPastItsExpiryIsRefusedAsExpired() throws Exception {
        String expired = admin("POST", "/_emulator/marketplace/registrations", """
                {"productCode": "%s", "expiresAt": "%s"}
                """.formatted(PRODUCT, Instant.now().minusSeconds(1))).get("registrationToken").stringValue();
        String live = admin("POST", "/_emulator/marketplace/registrations", """
                {"productCode": "%s", "expiresAt": "%s"}
                """.formatted(PRODUCT, Instant.now().plusSeconds(3600))).get("registrationToken").stringValue();

        assertThatThrownBy(() -> metering.resolveCustomer(r -> r.registrationToken(expired)))
                .isInstanceOfSatisfying(ExpiredTokenException.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ExpiredTokenException"));
        assertThat(metering.resolveCustomer(r -> r.registrationToken(live)).customerAWSAccountId()).matches("[0-9]{12}");
    }

    @Test
    void batchMeterUsageRecordsAndReportsEachRecord() throws Exception {
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(1, ChronoUnit.HOURS);

        BatchMeterUsageResponse response = metering.batchMeterUsage(r -> r.productCode(PRODUCT).usageRecords(
                record("cust-acme", "aku_hours", 12, hour),
                record("cust-globex", "aku_hours", 3, hour),
                record("cust-gone", "aku_hours", 6, hour),
                record("cust-unknown", "aku_hours", 6, hour)));

        assertThat(response.results()).extracting(UsageRecordResult::status).containsExactly(
                UsageRecordResultStatus.SUCCESS, UsageRecordResultStatus.SUCCESS,
                UsageRecordResultStatus.CUSTOMER_NOT_SUBSCRIBED, UsageRecordResultStatus.CUSTOMER_NOT_SUBSCRIBED);
        assertThat(response.results().getFirst().meteringRecordId()).isNotBlank();
        assertThat(response.results().getFirst().usageRecord()).isEqualTo(record("cust-acme", "aku_hours", 12, hour));
        assertThat(response.unprocessedRecords()).isEmpty();

        JsonNode recorded = admin("GET", "/_emulator/marketplace/meter-records?customerIdentifier=cust-acme", "");
        assertThat(recorded.get("records")).hasSize(1);
        assertThat(recorded.get("records").get(0).get("quantity").intValue()).isEqualTo(12);
        assertThat(recorded.get("records").get(0).get("timestamp").stringValue()).isEqualTo(hour.toString());
    }

    @Test
    void batchMeterUsageAcceptsAtMost25Records() {
        Instant now = Instant.now().minusSeconds(60);
        List<UsageRecord> records = new ArrayList<>(IntStream.range(0, 26)
                .mapToObj(i -> record("cust-acme", "dim_" + i, 1, now)).toList());

        assertThatThrownBy(() -> metering.batchMeterUsage(r -> r.productCode(PRODUCT).usageRecords(records)))
                .isInstanceOfSatisfying(MarketplaceMeteringException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                });

        records.removeLast();
        assertThat(metering.batchMeterUsage(r -> r.productCode(PRODUCT).usageRecords(records)).results())
                .hasSize(25).allMatch(result -> result.status() == UsageRecordResultStatus.SUCCESS);
    }

    @Test
    void sameCustomerDimensionAndHourIsADuplicateUnlessIdentical() {
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(2, ChronoUnit.HOURS);
        UsageRecordResult first = metering.batchMeterUsage(r -> r.productCode(PRODUCT)
                .usageRecords(record("cust-acme", "aku_hours", 12, hour))).results().getFirst();

        BatchMeterUsageResponse again = metering.batchMeterUsage(r -> r.productCode(PRODUCT).usageRecords(
                record("cust-acme", "aku_hours", 12, hour),                  // a retry: idempotent
                record("cust-acme", "aku_hours", 13, hour.plusSeconds(600)))); // same hour, other quantity

        assertThat(again.results().get(0).status()).isEqualTo(UsageRecordResultStatus.SUCCESS);
        assertThat(again.results().get(0).meteringRecordId()).isEqualTo(first.meteringRecordId());
        assertThat(again.results().get(1).status()).isEqualTo(UsageRecordResultStatus.DUPLICATE_RECORD);
        assertThat(again.results().get(1).meteringRecordId()).isNull();
    }

    @Test
    void recordsOutsideTheSixHourWindowAreNotProcessed() {
        Instant recent = Instant.now().minus(1, ChronoUnit.HOURS);
        Instant stale = Instant.now().minus(7, ChronoUnit.HOURS);

        BatchMeterUsageResponse mixed = metering.batchMeterUsage(r -> r.productCode(PRODUCT).usageRecords(
                record("cust-acme", "aku_hours", 12, recent), record("cust-globex", "aku_hours", 3, stale)));
        assertThat(mixed.results()).singleElement()
                .satisfies(result -> assertThat(result.usageRecord().customerIdentifier()).isEqualTo("cust-acme"));
        assertThat(mixed.unprocessedRecords()).singleElement()
                .satisfies(record -> assertThat(record.customerIdentifier()).isEqualTo("cust-globex"));

        assertThatThrownBy(() -> metering.batchMeterUsage(r -> r.productCode(PRODUCT).usageRecords(
                record("cust-acme", "aku_hours", 12, stale),
                record("cust-acme", "aku_hours", 1, Instant.now().plus(1, ChronoUnit.HOURS)))))
                .isInstanceOf(TimestampOutOfBoundsException.class);
    }

    @Test
    void meterUsageMetersTheCallersAccount() {
        Instant now = Instant.now().minusSeconds(30);
        String id = metering.meterUsage(r -> r.productCode(PRODUCT).usageDimension("hosts").usageQuantity(2).timestamp(now))
                .meteringRecordId();
        assertThat(id).isNotBlank();
        assertThat(metering.meterUsage(r -> r.productCode(PRODUCT).usageDimension("hosts").usageQuantity(2).timestamp(now))
                .meteringRecordId()).isEqualTo(id);
        assertThatThrownBy(() -> metering.meterUsage(r -> r.productCode(PRODUCT).usageDimension("hosts")
                .usageQuantity(5).timestamp(now))).isInstanceOf(DuplicateRequestException.class);
    }

    @Test
    void getEntitlementsFiltersByCustomerAndDimension() {
        GetEntitlementsResponse all = entitlement.getEntitlements(r -> r.productCode(PRODUCT));
        assertThat(all.entitlements()).extracting(Entitlement::customerIdentifier, Entitlement::dimension)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("cust-acme", "aku"),
                        org.assertj.core.groups.Tuple.tuple("cust-acme", "support"),
                        org.assertj.core.groups.Tuple.tuple("cust-globex", "aku"));

        GetEntitlementsResponse acme = entitlement.getEntitlements(r -> r.productCode(PRODUCT)
                .filter(java.util.Map.of(GetEntitlementFilterName.CUSTOMER_IDENTIFIER, List.of("cust-acme"),
                        GetEntitlementFilterName.DIMENSION, List.of("aku"))));
        assertThat(acme.entitlements()).singleElement().satisfies(e -> {
            assertThat(e.value().integerValue()).isEqualTo(12);
            assertThat(e.customerAWSAccountId()).isEqualTo("111122223333");
            assertThat(e.productCode()).isEqualTo(PRODUCT);
        });

        Entitlement support = entitlement.getEntitlements(r -> r.productCode(PRODUCT).filterWithStrings(
                java.util.Map.of("DIMENSION", List.of("support")))).entitlements().getFirst();
        assertThat(support.value().stringValue()).isEqualTo("enterprise");

        assertThat(entitlement.getEntitlements(r -> r.productCode("other-product")).entitlements()).isEmpty();
        assertThatThrownBy(() -> entitlement.getEntitlements(r -> r.productCode(PRODUCT).maxResults(100)))
                .isInstanceOf(InvalidParameterException.class);
    }

    @Test
    void getEntitlementsPaginates() {
        GetEntitlementsResponse first = entitlement.getEntitlements(r -> r.productCode(PRODUCT).maxResults(2));
        assertThat(first.entitlements()).hasSize(2);
        assertThat(first.nextToken()).isNotNull();
        GetEntitlementsResponse second = entitlement.getEntitlements(r -> r.productCode(PRODUCT).maxResults(2)
                .nextToken(first.nextToken()));
        assertThat(second.entitlements()).hasSize(1);
        assertThat(second.nextToken()).isNull();
    }
}

package dev.keel.marketplace.customers;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.keel.marketplace.EmulatorThrottles;
import dev.keel.marketplace.MarketplaceClients;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** ResolveCustomer through the real SDK against the test stack's AWS API emulator (KEEL_MARKETPLACE_ENDPOINT). */
class BuyerResolverIT {

    private static final String PRODUCT = "keel-registration-it";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static URI emulator;
    private static MarketplaceClients clients;
    private static BuyerResolver resolver;

    @BeforeAll
    static void connect() {
        String endpoint = System.getenv("KEEL_MARKETPLACE_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalStateException("KEEL_MARKETPLACE_ENDPOINT is not set: start the test stack (scripts/stack "
                    + "start --env test) and source .local/test/env");
        }
        emulator = URI.create(endpoint);
        clients = new MarketplaceClients(new MarketplaceClients.Endpoints(emulator, null), Region.US_EAST_1,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")));
        resolver = new BuyerResolver(clients.metering(), PRODUCT);
    }

    @AfterAll
    static void close() {
        clients.close();
    }

    @Test
    void aMintedTokenResolvesToTheBuyersAccountAndLicence() throws Exception {
        JsonNode minted = mint(PRODUCT, null);

        Resolution resolution = resolver.resolve(minted.get("registrationToken").stringValue());

        assertThat(resolution).isEqualTo(new Resolution.Resolved(new Buyer(
                minted.get("customerAWSAccountId").stringValue(), minted.get("licenseArn").stringValue(), PRODUCT,
                minted.get("customerIdentifier").stringValue())));
    }

    @Test
    void aLegacyBuyerWithoutALicenceIsKnownByItsCustomerIdentifier() throws Exception {
        String token = "legacy-" + System.nanoTime();
        admin("/_emulator/marketplace/customers", """
                {"registrationToken": "%s", "productCode": "%s", "customerIdentifier": "cust-legacy-%s",
                 "customerAWSAccountId": "210987654321"}
                """.formatted(token, PRODUCT, token));

        Resolution resolution = resolver.resolve(token);

        assertThat(resolution).isEqualTo(new Resolution.Resolved(
                new Buyer("210987654321", null, PRODUCT, "cust-legacy-" + token)));
    }

    @Test
    void aForgedTokenIsInvalid() {
        assertThat(resolver.resolve("forged-" + System.nanoTime()))
                .isInstanceOfSatisfying(Resolution.Refused.class, refused -> {
                    assertThat(refused.reason()).isEqualTo(Resolution.Reason.INVALID_TOKEN);
                    assertThat(refused.detail()).startsWith("InvalidTokenException");
                });
    }

    @Test
    void anExpiredTokenIsExpired() throws Exception {
        String token = mint(PRODUCT, Instant.now().minusSeconds(1)).get("registrationToken").stringValue();

        assertThat(resolver.resolve(token)).isInstanceOfSatisfying(Resolution.Refused.class,
                refused -> assertThat(refused.reason()).isEqualTo(Resolution.Reason.EXPIRED_TOKEN));
    }

    @Test
    void anotherProductsBuyerIsRefused() throws Exception {
        String token = mint("someone-elses-product", null).get("registrationToken").stringValue();

        assertThat(resolver.resolve(token)).isInstanceOfSatisfying(Resolution.Refused.class, refused -> {
            assertThat(refused.reason()).isEqualTo(Resolution.Reason.OTHER_PRODUCT);
            assertThat(refused.detail()).contains("someone-elses-product");
        });
    }

    @Test
    void aMarketplaceThatDoesNotAnswerIsUnavailable() {
        // A port nothing listens on: the SDK retries, then gives up.
        try (MarketplaceClients unreachable = new MarketplaceClients(
                new MarketplaceClients.Endpoints(URI.create("http://127.0.0.1:9"), null), Region.US_EAST_1,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))) {
            assertThat(new BuyerResolver(unreachable.metering(), PRODUCT).resolve("any"))
                    .isInstanceOfSatisfying(Resolution.Refused.class,
                            refused -> assertThat(refused.reason()).isEqualTo(Resolution.Reason.UNAVAILABLE));
        }
    }

    @Test
    void aBuyerArrivingWhileAwsThrottlesIsToTryAgainNotRefused() throws Exception {
        String token = mint(PRODUCT, null).get("registrationToken").stringValue();
        EmulatorThrottles caller = new EmulatorThrottles(emulator);
        caller.throttle("ResolveCustomer", 100);
        try (MarketplaceClients throttled = caller.clients()) {
            BuyerResolver resolving = new BuyerResolver(throttled.metering(), PRODUCT);
            assertThat(resolving.resolve(token)).isInstanceOfSatisfying(Resolution.Refused.class, refused -> {
                assertThat(refused.reason()).isEqualTo(Resolution.Reason.UNAVAILABLE);
                assertThat(refused.detail()).startsWith("ThrottlingException");
            });

            caller.throttle("ResolveCustomer", 0);
            assertThat(resolving.resolve(token)).isInstanceOf(Resolution.Resolved.class);
        }
    }

    private static JsonNode mint(String productCode, Instant expiresAt) throws Exception {
        return admin("/_emulator/marketplace/registrations", expiresAt == null
                ? "{\"productCode\": \"%s\"}".formatted(productCode)
                : "{\"productCode\": \"%s\", \"expiresAt\": \"%s\"}".formatted(productCode, expiresAt));
    }

    private static JsonNode admin(String path, String body) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(emulator.resolve(path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return JSON.readTree(response.body());
    }
}

package dev.keel.controlplane.support;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The test stack's AWS API emulator playing AWS Marketplace: buyers are minted or seeded through its admin API. */
public final class MarketplaceEmulator {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private MarketplaceEmulator() {
    }

    /** A new buyer of {@code productCode} with a fresh token, account and licence; {@code expiresAt} may be null. */
    public static JsonNode mint(String productCode, Instant expiresAt) {
        return admin("/_emulator/marketplace/registrations", expiresAt == null
                ? "{\"productCode\": \"%s\"}".formatted(productCode)
                : "{\"productCode\": \"%s\", \"expiresAt\": \"%s\"}".formatted(productCode, expiresAt));
    }

    /** Another registration token for a buyer whose account and licence are given. */
    public static JsonNode seed(String productCode, String token, String accountId, String licenseArn) {
        return admin("/_emulator/marketplace/customers", """
                {"registrationToken": "%s", "productCode": "%s", "customerAWSAccountId": "%s", "licenseArn": "%s",
                 "customerIdentifier": "cust-%s"}
                """.formatted(token, productCode, accountId, licenseArn, token));
    }

    private static JsonNode admin(String path, String body) {
        URI endpoint = URI.create(TestEnvironment.require("KEEL_MARKETPLACE_ENDPOINT"));
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(endpoint.resolve(path))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                throw new IllegalStateException("POST " + path + " answered " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("POST " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

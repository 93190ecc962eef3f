package dev.keel.marketplace.entitlements;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.TestStack;

/** GetEntitlements against the AWS API emulator's Marketplace, with buyers seeded through its admin API. */
class EntitlementsIT {

    private final String product = "keel-it-" + UUID.randomUUID();
    private MarketplaceClients clients;
    private Entitlements entitlements;

    @BeforeEach
    void connect() {
        clients = TestStack.clients();
        entitlements = new Entitlements(clients.entitlement(), Clock.systemUTC());
    }

    @AfterEach
    void close() {
        clients.close();
    }

    @Test
    void readsTheContractsAkuByLicenceAccountOrLegacyCustomer() throws Exception {
        String licence = "arn:aws:license-manager::294406891311:license:l-" + UUID.randomUUID().toString().replace("-", "");
        seed("""
                {"registrationToken": "%s", "productCode": "%s", "customerIdentifier": "cust-contract",
                 "customerAWSAccountId": "294406891311", "licenseArn": "%s",
                 "entitlements": [{"dimension": "aku", "value": 12}, {"dimension": "support", "value": "gold"}]}
                """.formatted(UUID.randomUUID(), product, licence));

        assertThat(entitlements.read(product, EntitlementFilter.licence(licence))).isEqualTo(new Entitlement(12));
        assertThat(entitlements.read(product, EntitlementFilter.account("294406891311"))).isEqualTo(new Entitlement(12));
        assertThat(entitlements.read(product, EntitlementFilter.legacyCustomer("cust-contract"))).isEqualTo(new Entitlement(12));
    }

    @Test
    void aBuyerWithoutAnAkuDimensionPaysAsItGoes() throws Exception {
        seed("""
                {"registrationToken": "%s", "productCode": "%s", "customerIdentifier": "cust-payg",
                 "customerAWSAccountId": "294406891312", "entitlements": []}
                """.formatted(UUID.randomUUID(), product));

        assertThat(entitlements.read(product, EntitlementFilter.legacyCustomer("cust-payg"))).isEqualTo(Entitlement.PAY_AS_YOU_GO);
    }

    @Test
    void ignoresExpiredEntitlements() throws Exception {
        seed("""
                {"registrationToken": "%s", "productCode": "%s", "customerIdentifier": "cust-expired",
                 "customerAWSAccountId": "294406891313",
                 "entitlements": [{"dimension": "aku", "value": 40, "expirationDate": "2020-01-01T00:00:00Z"},
                                  {"dimension": "aku", "value": 6, "expirationDate": "2099-01-01T00:00:00Z"}]}
                """.formatted(UUID.randomUUID(), product));

        assertThat(entitlements.read(product, EntitlementFilter.legacyCustomer("cust-expired"))).isEqualTo(new Entitlement(6));
    }

    @Test
    void readsEveryPage() throws Exception {
        StringBuilder many = new StringBuilder();
        for (int i = 1; i <= 30; i++) {
            many.append(i == 1 ? "" : ",").append("{\"dimension\": \"aku\", \"value\": ").append(i == 27 ? 90 : i)
                    .append('}');
        }
        seed("""
                {"registrationToken": "%s", "productCode": "%s", "customerIdentifier": "cust-pages",
                 "customerAWSAccountId": "294406891314", "entitlements": [%s]}
                """.formatted(UUID.randomUUID(), product, many));

        // The emulator serves at most 25 entitlements a page, like AWS: the largest sits on the second.
        assertThat(entitlements.read(product, EntitlementFilter.legacyCustomer("cust-pages"))).isEqualTo(new Entitlement(90));
    }

    private static void seed(String body) throws Exception {
        URI uri = TestStack.required("KEEL_MARKETPLACE_ENDPOINT").resolve("/_emulator/marketplace/customers");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }
}

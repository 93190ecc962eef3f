package dev.keel.controlplane.identity;

import java.util.Base64;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Tokens;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Tokens come from the test run's real Keycloak; organization and role come from their claims. */
class IdentityApiTest extends ApiTest {

    @Test
    void aRealKeycloakTokenIdentifiesTheUserOrganizationAndRole() {
        JsonNode me = api(ADMIN).get("/organizations/me").json();
        assertThat(me.get("slug").asString()).isEqualTo("acme");
        assertThat(me.get("role").asString()).isEqualTo("admin");
        assertThat(me.get("user").get("username").asString()).isEqualTo(ADMIN);
        assertThat(me.get("user").get("email").asString()).isEqualTo("admin@acme.example");
        assertThat(me.get("externalId").asString()).startsWith("keel-").hasSizeGreaterThanOrEqualTo(16);
    }

    @Test
    void aMemberOfSeveralOrganizationsPicksOneWithAHeader() {
        ApiClient multi = api("multi-org");
        assertThat(multi.get("/organizations/me").json().get("slug").asString()).isEqualTo("acme");
        JsonNode globex = multi.header("X-Organization", "globex").get("/organizations/me").json();
        assertThat(globex.get("slug").asString()).isEqualTo("globex");
        assertThat(globex.get("role").asString()).isEqualTo("editor");
        assertThat(globex.get("memberships").size()).isEqualTo(2);

        ApiClient.Response notMine = multi.header("X-Organization", "initech").get("/organizations/me");
        assertThat(notMine.status()).isEqualTo(403);
        assertThat(notMine.json().get("detail").asString()).contains("initech");
    }

    @Test
    void theAutomationServiceAccountActsForItsOrganization() {
        JsonNode me = anonymous().withToken(Tokens.automation()).get("/organizations/me").json();
        assertThat(me.get("slug").asString()).isEqualTo("acme");
        assertThat(me.get("role").asString()).isEqualTo("editor");
    }

    @Test
    void anOrganizationHeaderThatIsNoSlugIsRefused() {
        for (String slug : new String[]{"", "Acme", "a"}) {
            ApiClient.Response response = api(VIEWER).header("X-Organization", slug).get("/sizing/catalog");
            assertThat(response.status()).as("X-Organization '" + slug + "': " + response).isEqualTo(400);
            assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("X-Organization");
        }
    }

    @Test
    void aTamperedTokenIsRejected() {
        String[] parts = Tokens.of(VIEWER).split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1])).replace("acme:viewer", "acme:admin");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(claims.getBytes()) + "." + parts[2];

        ApiClient.Response response = anonymous().withToken(forged).get("/organizations/me");

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.header("Content-Type")).contains("application/problem+json");
    }

    @Test
    void probesAndTheContractAreOpenToEveryoneAndActuatorOnlyOnItsOwnPort() {
        String root = "http://localhost:" + port;
        ApiClient open = new ApiClient(root, null);
        assertThat(open.get("/readyz").status()).isEqualTo(200);
        assertThat(open.get("/livez").status()).isEqualTo(200);
        assertThat(open.get("/actuator/prometheus").status()).isEqualTo(404);
        assertThat(open.get("/actuator/health").status()).isEqualTo(404);
        ApiClient management = new ApiClient("http://localhost:" + managementPort, null);
        assertThat(management.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(management.get("/actuator/prometheus").body()).contains("http_server_requests");
        JsonNode contract = open.get("/api/v1/openapi.json").json();
        assertThat(contract.get("openapi").asString()).startsWith("3.1");
        assertThat(open.get("/api/v1/docs").body()).contains("swagger-ui");
        assertThat(open.get("/webjars/swagger-ui/swagger-ui-bundle.js").status()).isEqualTo(200);
    }
}

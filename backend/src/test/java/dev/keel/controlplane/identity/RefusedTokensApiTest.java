package dev.keel.controlplane.identity;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Tokens;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Refused tokens, over real requests with the test run's Keycloak. Each test sends from a loopback address of its own,
 * so that its refusals are counted apart from every other test's.
 */
class RefusedTokensApiTest extends ApiTest {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    @Test
    void everyRefusalIsAnsweredAlikeWhateverWasWrong() {
        ApiClient client = anonymous().from(newAddress());
        String[] parts = Tokens.of(VIEWER).split("\\.");
        Map<String, ApiClient> refused = new LinkedHashMap<>();
        refused.put("no token", client);
        refused.put("alg none", client.withToken(encode("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + parts[1] + "."));
        refused.put("bad signature", client.withToken(parts[0] + "." + parts[1] + "." + BASE64URL.encodeToString(
                "not the signature".getBytes(StandardCharsets.UTF_8))));
        refused.put("not a JWT", client.withToken("not-a-jwt"));
        refused.put("malformed header", client.header("Authorization", "Bearer two words"));

        Map<String, String> answers = new LinkedHashMap<>();
        refused.forEach((what, sender) -> {
            ApiClient.Response response = sender.get("/organizations/me");
            assertThat(response.status()).as(what + ": " + response).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).as(what).hasValueSatisfying(challenge -> assertThat(challenge)
                    .startsWith("Bearer").doesNotContainIgnoringCase("alg").doesNotContainIgnoringCase("signature")
                    .doesNotContainIgnoringCase("expired").doesNotContainIgnoringCase("malformed"));
            JsonNode problem = response.json();
            answers.put(what, problem.get("type").asString() + " | " + problem.get("title").asString() + " | "
                    + problem.get("detail").asString());
        });

        assertThat(answers.values()).as(answers.toString()).containsOnly("https://keel.dev/problems/unauthorized"
                + " | Authentication required | Send a valid bearer token from the identity provider.");
    }

    @Test
    void anAddressWhoseTokensWereRefusedTooOftenWaitsButKeepsItsAcceptedTokens() {
        String accepted = Tokens.of(VIEWER);
        assertThat(api(VIEWER).get("/organizations/me").status()).isEqualTo(200);
        ApiClient address = anonymous().from(newAddress());
        String[] parts = Tokens.of(EDITOR).split("\\.");

        for (int i = 1; i <= 20; i++) {
            String forged = parts[0] + "." + parts[1] + "." + BASE64URL.encodeToString(("forged " + i).getBytes(StandardCharsets.UTF_8));
            assertThat(address.withToken(forged).get("/organizations/me").status()).as("refusal " + i).isEqualTo(401);
        }
        ApiClient.Response held = address.withToken(parts[0] + "." + parts[1] + ".forged-21").get("/organizations/me");

        assertThat(held.status()).as(held.toString()).isEqualTo(429);
        assertThat(held.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).contains("application/problem+json"));
        assertThat(held.json().get("type").asString()).isEqualTo("https://keel.dev/problems/too-many-failed-authentications");
        assertThat(held.header("Retry-After")).hasValueSatisfying(seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 60));
        assertThat(address.withToken(accepted).get("/organizations/me").status())
                .as("a token already accepted still works from the address").isEqualTo(200);
        assertThat(address.withToken(Tokens.fresh(VIEWER)).get("/organizations/me").status())
                .as("a token not accepted yet, even a valid one, is not checked until the window closes").isEqualTo(429);
        assertThat(anonymous().from(newAddress()).withToken(Tokens.fresh(VIEWER)).get("/organizations/me").status())
                .as("other addresses are not held back").isEqualTo(200);
    }

    private static String encode(String json) {
        return BASE64URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    /** A loopback address no other test sends from. */
    private static InetAddress newAddress() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try {
            return InetAddress.getByName("127." + random.nextInt(1, 255) + "." + random.nextInt(0, 256) + "."
                    + random.nextInt(1, 255));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.keel.controlplane.support;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Real access tokens from the test run's Keycloak, one per demo user, reused until shortly before they expire. */
public final class Tokens {

    public static final String PASSWORD = "keel-demo";
    // Renewed this long before Keycloak's expiry, so a request never carries a token that lapses in flight.
    private static final Duration MARGIN = Duration.ofSeconds(30);
    private static final Map<String, Token> cache = new ConcurrentHashMap<>();
    private static final HttpClient http = HttpClient.newHttpClient();
    private static final JsonMapper json = JsonMapper.builder().build();

    private Tokens() {
    }

    /** A password-grant token through the CLI's client, as {@code keel login --password} would get. */
    public static String of(String username) {
        return valid(username, () -> signIn(username));
    }

    /** As {@link #of}, but one Keycloak issues now, which no request has carried yet. */
    public static String fresh(String username) {
        return signIn(username).accessToken();
    }

    private static Token signIn(String username) {
        return request(Map.of("grant_type", "password", "client_id", "keel-cli", "username", username,
                "password", PASSWORD, "scope", "openid"));
    }

    /** A client-credentials token of the demo automation service account. */
    public static String automation() {
        return valid("automation", () -> request(Map.of("grant_type", "client_credentials",
                "client_id", "keel-automation-demo", "client_secret", "keel-automation-demo-secret")));
    }

    private static String valid(String key, Supplier<Token> fresh) {
        return cache.compute(key, (k, cached) -> cached != null && Instant.now().isBefore(cached.renewAt()) ? cached : fresh.get())
                .accessToken();
    }

    private record Token(String accessToken, Instant renewAt) {
    }

    private static Token request(Map<String, String> form) {
        String body = form.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(TestEnvironment.keycloakUrl()
                        + "/realms/byoc/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("Keycloak refused a token: " + response.statusCode() + " " + response.body());
            }
            JsonNode token = json.readTree(response.body());
            return new Token(token.get("access_token").asString(),
                    Instant.now().plusSeconds(token.get("expires_in").asLong()).minus(MARGIN));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Keycloak is unreachable at " + TestEnvironment.keycloakUrl(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

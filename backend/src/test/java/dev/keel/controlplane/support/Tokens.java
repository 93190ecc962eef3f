package dev.keel.controlplane.support;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Real access tokens from the test run's Keycloak, one per demo user, reused while they are valid. */
public final class Tokens {

    public static final String PASSWORD = "keel-demo";
    private static final Map<String, String> cache = new ConcurrentHashMap<>();
    private static final HttpClient http = HttpClient.newHttpClient();
    private static final JsonMapper json = JsonMapper.builder().build();

    private Tokens() {
    }

    /** A password-grant token through the CLI's client, as {@code keel login --password} would get. */
    public static String of(String username) {
        return cache.computeIfAbsent(username, u -> request(Map.of("grant_type", "password", "client_id", "keel-cli",
                "username", u, "password", PASSWORD, "scope", "openid")));
    }

    /** A client-credentials token of the demo automation service account. */
    public static String automation() {
        return cache.computeIfAbsent("automation", u -> request(Map.of("grant_type", "client_credentials",
                "client_id", "keel-automation-demo", "client_secret", "keel-automation-demo-secret")));
    }

    private static String request(Map<String, String> form) {
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
            return token.get("access_token").asString();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Keycloak is unreachable at " + TestEnvironment.keycloakUrl(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

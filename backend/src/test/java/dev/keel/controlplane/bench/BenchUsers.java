package dev.keel.controlplane.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.keel.controlplane.support.TestEnvironment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real callers for the seeded organizations. A Keycloak user per organization would mean a thousand users and a
 * thousand password grants; instead each user made here is an editor of a slice of the organizations (its
 * {@code org_memberships} attribute, which the realm's mapper puts in the token as it does for every user), and a
 * request names its organization with {@code X-Organization}, as a person in several organizations does. The
 * backend checks the token's signature, audience and memberships on every request exactly as in production. The
 * users are made through Keycloak's admin API (the stack's bootstrap admin) and deleted by {@link #close()}.
 */
final class BenchUsers implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String REALM = "byoc";

    private final HttpClient http = HttpClient.newHttpClient();
    private final String keycloak = TestEnvironment.keycloakUrl();
    private final String password = "bench-" + UUID.randomUUID();
    private final List<String> userIds = new ArrayList<>();
    /** Access token per organization slug. */
    private final Map<String, String> tokens = new HashMap<>();
    private String adminToken;
    private long adminTokenAt;

    /** Users {@code keel-bench-NN}, each an editor of {@code perUser} consecutive organizations of {@code slugs}. */
    static BenchUsers covering(List<String> slugs, int perUser) throws IOException, InterruptedException {
        BenchUsers users = new BenchUsers();
        try {
            for (int from = 0, n = 1; from < slugs.size(); from += perUser, n++) {
                List<String> slice = slugs.subList(from, Math.min(slugs.size(), from + perUser));
                String username = String.format("keel-bench-%02d", n);
                users.create(users.adminToken(), username, slice.stream().map(slug -> slug + ":editor").toList());
                String token = users.token(username);
                slice.forEach(slug -> users.tokens.put(slug, token));
            }
            return users;
        } catch (IOException | InterruptedException | RuntimeException e) {
            users.close();
            throw e;
        }
    }

    String tokenFor(String slug) {
        return tokens.get(slug);
    }

    int count() {
        return userIds.size();
    }

    /** The size of the largest token, in bytes: what each request carries in its Authorization header. */
    int largestTokenBytes() {
        return tokens.values().stream().mapToInt(String::length).max().orElse(0);
    }

    private void create(String admin, String username, List<String> memberships) throws IOException, InterruptedException {
        existing(admin, username).ifPresent(id -> delete(admin, id));
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("username", username);
        user.put("enabled", true);
        user.put("email", username + "@bench.invalid");
        user.put("emailVerified", true);
        user.put("firstName", "Load");
        user.put("lastName", "Benchmark");
        user.put("attributes", Map.of("org_memberships", memberships));
        user.put("credentials", List.of(Map.of("type", "password", "value", password, "temporary", false)));
        user.put("requiredActions", List.of());
        HttpResponse<String> created = send(HttpRequest.newBuilder(adminUri("/users"))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(user))).build());
        if (created.statusCode() != 201) {
            throw new IllegalStateException("Keycloak refused user " + username + ": " + created.statusCode() + " " + created.body());
        }
        String location = created.headers().firstValue("Location").orElseThrow();
        userIds.add(location.substring(location.lastIndexOf('/') + 1));
    }

    private Optional<String> existing(String admin, String username) throws IOException, InterruptedException {
        HttpResponse<String> found = send(HttpRequest.newBuilder(adminUri("/users?exact=true&username=" + username))
                .header("Authorization", "Bearer " + admin).build());
        JsonNode users = JSON.readTree(found.body());
        return users.isEmpty() ? Optional.empty() : Optional.of(users.get(0).get("id").asString());
    }

    private void delete(String admin, String id) {
        try {
            send(HttpRequest.newBuilder(adminUri("/users/" + id)).header("Authorization", "Bearer " + admin).DELETE().build());
        } catch (IOException e) {
            throw new IllegalStateException("Keycloak did not delete user " + id, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A password-grant token through the CLI's client, as every user of the product gets one. */
    private String token(String username) throws IOException, InterruptedException {
        return grant("/realms/" + REALM, Map.of("grant_type", "password", "client_id", "keel-cli", "username", username,
                "password", password, "scope", "openid"));
    }

    /**
     * The bootstrap admin of the stack's Keycloak (scripts/stack starts it as admin / admin); its tokens live a
     * minute, so a new one every 30 s.
     */
    private String adminToken() throws IOException, InterruptedException {
        if (adminToken == null || System.nanoTime() - adminTokenAt > 30_000_000_000L) {
            adminToken = grantAdmin();
            adminTokenAt = System.nanoTime();
        }
        return adminToken;
    }

    private String grantAdmin() throws IOException, InterruptedException {
        return grant("/realms/master", Map.of("grant_type", "password", "client_id", "admin-cli",
                "username", System.getenv().getOrDefault("KEEL_KEYCLOAK_ADMIN", "admin"),
                "password", System.getenv().getOrDefault("KEEL_KEYCLOAK_ADMIN_PASSWORD", "admin")));
    }

    private String grant(String realm, Map<String, String> form) throws IOException, InterruptedException {
        String body = form.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(keycloak + realm + "/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("Keycloak refused a token: " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body()).get("access_token").asString();
    }

    private URI adminUri(String path) {
        return URI.create(keycloak + "/admin/realms/" + REALM + path);
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (userIds.isEmpty()) {
            return;
        }
        String admin = adminToken();
        userIds.forEach(id -> delete(admin, id));
        userIds.clear();
    }
}

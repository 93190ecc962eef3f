package dev.keel.controlplane.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.keel.controlplane.settings.ProductionSettings;
import dev.keel.fixtures.NoCloudProvisioningDriver;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the API tests: the whole backend on a random port, against the test run's PostgreSQL
 * and Keycloak, called over HTTP with real tokens. All API tests share one application context.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "keel.provisioning.driver=no-cloud",
        "keel.provisioning.no-cloud.step-delay=20ms",
        "db-scheduler.polling-interval=200ms",
        "keel.operations.retry-backoff=200ms",
        "keel.provisioning.drain-timeout=3s",
        "keel.provisioning.drain-poll-interval=100ms",
})
@ActiveProfiles(ProductionSettings.LOCAL_PROFILE)
public abstract class ApiTest {

    public static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(30);
    public static final String ADMIN = "acme-admin";
    public static final String EDITOR = "acme-editor";
    public static final String VIEWER = "acme-viewer";
    public static final String OTHER_ORG_ADMIN = "globex-admin";

    @LocalServerPort
    protected int port;

    /** Actuator's own port (health, metrics), apart from the API's. */
    @LocalManagementPort
    protected int managementPort;

    @Autowired
    protected NoCloudProvisioningDriver noCloud;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", TestEnvironment::databaseUrl);
        keycloak(registry);
    }

    /** Tokens from the test run's Keycloak, for a backend started in the test's JVM. */
    public static void keycloak(DynamicPropertyRegistry registry) {
        registry.add("spring.security.oauth2.resourceserver.jwt.issuer-uri",
                () -> TestEnvironment.keycloakUrl() + "/realms/byoc");
        registry.add("spring.security.oauth2.resourceserver.jwt.jwk-set-uri",
                () -> TestEnvironment.keycloakUrl() + "/realms/byoc/protocol/openid-connect/certs");
    }

    protected ApiClient api(String username) {
        return anonymous().as(username);
    }

    protected ApiClient anonymous() {
        return new ApiClient("http://localhost:" + port + "/api/v1", null);
    }

    protected static String unique(String prefix) {
        return Fixtures.unique(prefix);
    }

    protected static JsonNode registerAccount(ApiClient api) {
        return Fixtures.registerAccount(api);
    }

    protected static Map<String, Object> instanceBody(String accountId, String wal, int zones, int aku) {
        return Fixtures.instanceBody(accountId, wal, zones, aku);
    }

    /** Creates an instance and waits for its operation to succeed; returns the instance. */
    /**
     * As {@link #createRunningInstance}; from then on the no-cloud machines' agents of the instance are silent and the
     * test plays them alone.
     */
    protected JsonNode createInstancePlayedByTest(ApiClient api, Map<String, Object> body) {
        JsonNode instance = createRunningInstance(api, body);
        noCloud.agents().release(java.util.UUID.fromString(instance.get("id").asString()));
        return instance;
    }

    protected JsonNode createRunningInstance(ApiClient api, Map<String, Object> body) {
        ApiClient.Response created = api.post("/instances", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        awaitOperation(api, created.json().get("id").asString(), "SUCCEEDED");
        return api.get("/instances/" + created.json().get("instanceId").asString()).json();
    }

    protected JsonNode awaitOperation(ApiClient api, String operationId, String state) {
        JsonNode operation = api.await("/operations/" + operationId,
                op -> List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(op.get("state").asString()), OPERATION_TIMEOUT);
        assertThat(operation.get("state").asString()).as(operation.toString()).isEqualTo(state);
        return operation;
    }
}

package dev.keel.controlplane.kafkaaccess;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.controlplane.metrics.AgentReports;
import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.fixtures.NoCloudProvisioningDriver;
import tools.jackson.databind.JsonNode;

import static dev.keel.controlplane.kafkaaccess.AgentAccess.acl;
import static dev.keel.controlplane.kafkaaccess.AgentAccess.change;
import static dev.keel.controlplane.kafkaaccess.AgentAccess.report;
import static dev.keel.controlplane.kafkaaccess.AgentAccess.topic;
import static dev.keel.controlplane.kafkaaccess.AgentAccess.user;
import static org.assertj.core.api.Assertions.assertThat;

/** Kafka users, ACLs and topics through the API, and the broker agent's pull and report that apply them. */
class KafkaAccessApiTest extends ApiTest {

    private static final String URL_SAFE_32 = "[A-Za-z0-9_-]{32}";

    @Autowired
    InstanceTokens tokens;
    @Autowired
    JdbcClient jdbc;

    private static String shared;
    private ApiClient api;
    private String accountId;

    @BeforeEach
    void account() {
        api = api(EDITOR);
        accountId = registerAccount(api).get("id").asString();
    }

    @Test
    void anInstanceStartsWithAnAdminUserAllowedEverythingWhosePasswordIsShownOnce() {
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        // No agent applies its access: the test reads what waits for one.
        body.put("name", unique(NoCloudProvisioningDriver.UNPLAYED));
        ApiClient.Response created = api.post("/instances", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        JsonNode credentials = created.json().get("adminCredentials");
        assertThat(credentials.get("username").asString()).isEqualTo("admin");
        String password = credentials.get("password").asString();
        assertThat(password).matches(URL_SAFE_32);
        String instanceId = created.json().get("instanceId").asString();

        JsonNode admin = api.get("/instances/" + instanceId + "/users/admin").json();
        assertThat(admin.get("status").asString()).isEqualTo("CREATING");
        assertThat(admin.has("password")).isFalse();
        JsonNode acls = api.get("/instances/" + instanceId + "/acls?principal=User:admin").json().get("items");
        assertThat(acls).hasSize(4);
        List<String> bindings = new ArrayList<>();
        acls.forEach(a -> bindings.add(a.get("resourceType").asString() + " " + a.get("resourceName").asString() + " "
                + a.get("patternType").asString() + " " + a.get("operation").asString() + " " + a.get("permission").asString()));
        assertThat(bindings).containsExactlyInAnyOrder("TOPIC * LITERAL ALL ALLOW", "GROUP * LITERAL ALL ALLOW",
                "TRANSACTIONAL_ID * LITERAL ALL ALLOW", "CLUSTER kafka-cluster LITERAL ALL ALLOW");
        assertThat(api.get("/audit-events?limit=100").body()).contains("kafka-user.create").doesNotContain(password);
        assertThat(agent(instanceId).pull().get("users").get(0).get("password").asString()).isEqualTo(password);
        assertThat(storedBytes(password)).as("no table holds the password in the clear").isZero();
    }

    @Test
    void aPlaintextInstanceHasNoAdminNoUsersAndNoAclsButItsTopicsAreManaged() {
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        body.put("listenerSecurity", "PLAINTEXT_UNAUTHENTICATED");
        ApiClient.Response created = api.post("/instances", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        assertThat(created.json().path("adminCredentials").isObject()).as(created.toString()).isFalse();
        String instanceId = created.json().get("instanceId").asString();

        for (ApiClient.Response refused : List.of(api.get(users(instanceId)),
                api.post(users(instanceId), Map.of("name", "orders-app")),
                api.post(acls(instanceId), Map.of("principal", "User:orders-app", "resourceType", "TOPIC",
                        "resourceName", "orders", "patternType", "LITERAL", "operation", "READ", "permission", "ALLOW")))) {
            assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
            assertThat(refused.json().get("type").asString()).endsWith("/listener-unauthenticated");
        }
        assertThat(api.post(topics(instanceId), Map.of("name", "orders")).status()).isEqualTo(202);
        JsonNode desired = agent(instanceId).pull();
        assertThat(desired.get("users")).isEmpty();
        assertThat(desired.get("acls")).isEmpty();
        assertThat(desired.get("topicChanges")).hasSize(1);
    }

    @Test
    void usersAreCreatedRotatedAndDeletedAndTheirPasswordsAreNeverListed() {
        String instanceId = instance();
        ApiClient.Response created = api.post(users(instanceId), Map.of("name", "orders-service"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Location")).hasValue("/api/v1/instances/" + instanceId + "/users/orders-service");
        String first = created.json().get("password").asString();
        assertThat(first).matches(URL_SAFE_32);
        assertThat(created.json().get("user").get("credentialVersion").asInt()).isEqualTo(1);

        ApiClient.Response taken = api.post(users(instanceId), Map.of("name", "orders-service"));
        assertThat(taken.status()).isEqualTo(409);
        assertThat(taken.json().get("type").asString()).endsWith("/name-taken");

        ApiClient.Response rotated = api.post(users(instanceId) + "/orders-service/rotate-password", null);
        assertThat(rotated.status()).as(rotated.toString()).isEqualTo(200);
        assertThat(rotated.json().get("password").asString()).matches(URL_SAFE_32).isNotEqualTo(first);
        assertThat(rotated.json().get("user").get("credentialVersion").asInt()).isEqualTo(2);

        ApiClient.Response page = api.get(users(instanceId) + "?limit=1");
        assertThat(page.json().get("items").get(0).get("name").asString()).isEqualTo("admin");
        ApiClient.Response next = api.get(users(instanceId) + "?limit=1&cursor=" + page.json().get("nextCursor").asString());
        assertThat(next.json().get("items").get(0).get("name").asString()).isEqualTo("orders-service");
        assertThat(next.json().get("nextCursor").isNull()).isTrue();
        assertThat(page.body() + next.body()).doesNotContain(first).doesNotContain("password\"");

        ApiClient.Response deleted = api.delete(users(instanceId) + "/orders-service");
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(202);
        assertThat(deleted.json().get("status").asString()).isEqualTo("DELETING");
        ApiClient.Response rotatingDeleted = api.post(users(instanceId) + "/orders-service/rotate-password", null);
        assertThat(rotatingDeleted.status()).isEqualTo(409);
        assertThat(api.get("/audit-events?limit=100").body()).contains("kafka-user.rotate-password", "kafka-user.delete")
                .doesNotContain(first).doesNotContain(rotated.json().get("password").asString());
    }

    @ParameterizedTest
    @MethodSource("badUserNames")
    void userNamesFollowTheRules(Object name) {
        assertRefusedOn(api.post(users(sharedInstance()), name == null ? Map.of() : Map.of("name", name)), "name");
    }

    static Stream<Object> badUserNames() {
        return Stream.of("", "a b", "alice=admin", "a,b", "x".repeat(65), "ünïcode", 7, null);
    }

    @Test
    void aReplayedCreateAnswersTheSamePasswordWhichIsStoredOnlySealed() {
        String instanceId = instance();
        ApiClient keyed = api.header("Idempotency-Key", UUID.randomUUID().toString());
        ApiClient.Response first = keyed.post(users(instanceId), Map.of("name", "replayed"));
        ApiClient.Response replay = keyed.post(users(instanceId), Map.of("name", "replayed"));
        assertThat(first.status()).isEqualTo(201);
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotency-Replayed")).hasValue("true");
        String password = first.json().get("password").asString();
        assertThat(replay.json().get("password").asString()).isEqualTo(password);
        assertThat(storedBytes(password)).as("no table holds the password in the clear").isZero();

        ApiClient keyedCreate = api.header("Idempotency-Key", UUID.randomUUID().toString());
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        String admin = keyedCreate.post("/instances", body).json().get("adminCredentials").get("password").asString();
        assertThat(keyedCreate.post("/instances", body).json().get("adminCredentials").get("password").asString())
                .isEqualTo(admin);
        assertThat(storedBytes(admin)).isZero();
    }

    @ParameterizedTest
    @MethodSource("badAcls")
    void aclsFollowKafkasRules(Map<String, Object> change, String field) {
        String instanceId = sharedInstance();
        Map<String, Object> body = new HashMap<>(Map.of("principal", "User:alice", "resourceType", "TOPIC",
                "resourceName", "orders", "patternType", "LITERAL", "operation", "READ", "permission", "ALLOW"));
        body.putAll(change);
        body.values().removeIf(v -> v.equals("<absent>"));
        assertRefusedOn(api.post(acls(instanceId), body), field);
    }

    static Stream<Arguments> badAcls() {
        return Stream.of(
                Arguments.of(Map.of("principal", "alice"), "principal"),
                Arguments.of(Map.of("principal", "Group:ops"), "principal"),
                Arguments.of(Map.of("principal", "User:"), "principal"),
                Arguments.of(Map.of("principal", "User:al ice"), "principal"),
                Arguments.of(Map.of("principal", "<absent>"), "principal"),
                Arguments.of(Map.of("operation", "IDEMPOTENT_WRITE"), "operation"),
                Arguments.of(Map.of("resourceType", "GROUP", "operation", "WRITE"), "operation"),
                Arguments.of(Map.of("resourceType", "TRANSACTIONAL_ID", "operation", "READ"), "operation"),
                Arguments.of(Map.of("resourceType", "CLUSTER", "resourceName", "prod", "operation", "ALTER"), "resourceName"),
                Arguments.of(Map.of("resourceType", "CLUSTER", "resourceName", "kafka-cluster", "patternType", "PREFIXED",
                        "operation", "ALTER"), "patternType"),
                Arguments.of(Map.of("patternType", "PREFIXED", "resourceName", "*"), "resourceName"),
                Arguments.of(Map.of("resourceName", ""), "resourceName"),
                Arguments.of(Map.of("operation", "READ_ALL"), "operation"),
                Arguments.of(Map.of("host", "example.com"), "host"),
                Arguments.of(Map.of("host", "10.0.0.256"), "host"),
                Arguments.of(Map.of("permission", "MAYBE"), "permission"));
    }

    @Test
    void anAclIsRecordedOnceAndDeletedOnceTheAgentHasRemovedIt() {
        String instanceId = instance();
        Map<String, Object> body = Map.of("principal", "User:alice", "resourceType", "TOPIC", "resourceName", "orders",
                "patternType", "PREFIXED", "operation", "WRITE", "permission", "ALLOW", "host", "10.0.0.7");
        ApiClient.Response created = api.post(acls(instanceId), body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        String id = created.json().get("id").asString();
        assertThat(created.header("Location")).hasValue("/api/v1/instances/" + instanceId + "/acls/" + id);
        ApiClient.Response again = api.post(acls(instanceId), body);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("type").asString()).endsWith("/acl-exists");
        assertThat(api.post(acls(instanceId), Map.of("principal", "User:alice", "resourceType", "TOPIC",
                "resourceName", "orders", "patternType", "LITERAL", "operation", "WRITE", "permission", "ALLOW",
                "host", "::1")).status()).isEqualTo(201);

        assertThat(api.delete(acls(instanceId) + "/" + id).json().get("status").asString()).isEqualTo("DELETING");
        AgentAccess agent = agent(instanceId);
        JsonNode desired = agent.pull();
        assertThat(desired.get("removedAcls").findValuesAsString("id")).containsExactly(id);
        assertThat(desired.get("acls").findValuesAsString("id")).doesNotContain(id);
        agent.report(report(List.of(), List.of(acl(id, false, false)), List.of(), List.of()));
        assertThat(api.get(acls(instanceId) + "/" + id).status()).isEqualTo(404);
    }

    @ParameterizedTest
    @MethodSource("badTopics")
    void topicsFollowKafkasRules(Map<String, Object> body, String field) {
        assertRefusedOn(api.post(topics(sharedInstance()), body), field);
    }

    static Stream<Arguments> badTopics() {
        return Stream.of(
                Arguments.of(Map.of("name", ".."), "name"),
                Arguments.of(Map.of("name", "."), "name"),
                Arguments.of(Map.of("name", "__consumer_offsets"), "name"),
                Arguments.of(Map.of("name", "a/b"), "name"),
                Arguments.of(Map.of("name", "t".repeat(250)), "name"),
                Arguments.of(Map.of(), "name"),
                Arguments.of(Map.of("name", "t", "partitions", 0), "partitions"),
                Arguments.of(Map.of("name", "t", "partitions", 10_001), "partitions"),
                Arguments.of(Map.of("name", "t", "replicationFactor", 4), "replicationFactor"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("unclean.leader.election.enable", "true")),
                        "configs.unclean.leader.election.enable"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("retention.ms", "-2")), "configs.retention.ms"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("retention.ms", "7d")), "configs.retention.ms"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("segment.bytes", "1024")), "configs.segment.bytes"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("cleanup.policy", "forever")), "configs.cleanup.policy"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("compression.type", "brotli")), "configs.compression.type"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("min.insync.replicas", "0")), "configs.min.insync.replicas"),
                Arguments.of(Map.of("name", "t", "configs", Map.of("retention.bytes", "1".repeat(19))), "configs.retention.bytes"));
    }

    @Test
    void aTopicMaySayItTakesTheBrokersDefaultReplicationFactor() {
        Map<String, Object> body = new HashMap<>();
        body.put("name", unique("defaults"));
        body.put("replicationFactor", null);
        ApiClient.Response created = api.post(topics(sharedInstance()), body);
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        assertThat(created.json().get("status").asString()).isEqualTo("CREATING");
    }

    @Test
    void aBrokerThatStartsServingHasEveryCredentialWrittenAgainOnce() {
        String instanceId = instance();
        String password = api.post(users(instanceId), Map.of("name", "alice")).json().get("password").asString();
        AgentAccess agent = agent(instanceId);
        Map<String, Object> applied = report(List.of(user("admin", true, 1, null), user("alice", true, 1, null)),
                List.of(), List.of(), List.of());
        agent.report(applied);
        assertThat(userIn(agent.pull(), "alice").get("password").isNull()).isTrue();

        UUID id = UUID.fromString(instanceId);
        scaleToFourBrokers(instanceId);
        AgentReports broker = new AgentReports(port, id);
        assertThat(broker.send(3, tokens.of(id), AgentReports.report(id, 3, false, Map.of())).status()).isEqualTo(200);
        assertThat(userIn(agent.pull(), "alice").get("password").isNull()).as("not serving yet").isTrue();

        assertThat(broker.send(3, tokens.of(id), AgentReports.report(id, 3, true, Map.of())).status()).isEqualTo(200);
        JsonNode desired = agent.pull();
        assertThat(userIn(desired, "alice").get("password").asString()).isEqualTo(password);
        assertThat(userIn(desired, "admin").get("password").isNull()).isFalse();

        agent.report(applied);
        JsonNode alice = api.get(users(instanceId) + "/alice").json();
        assertThat(alice.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(alice.get("restoredAt").isNull()).as("written again, not restored").isTrue();
        assertThat(broker.send(3, tokens.of(id), AgentReports.report(id, 3, true, Map.of())).status()).isEqualTo(200);
        assertThat(userIn(agent.pull(), "alice").get("password").isNull()).as("the same broker still serving").isTrue();
    }

    @Test
    void aNewBrokerServesOnlyOnceAPassThatBeganAfterItServedWroteTheCredentials() {
        String instanceId = instance();
        UUID id = UUID.fromString(instanceId);
        AgentAccess agent = agent(instanceId);
        AgentReports brokers = new AgentReports(port, id);
        String path = "/instances/" + instanceId;
        for (int node = 0; node < 3; node++) {
            brokers.send(node, tokens.of(id), AgentReports.report(id, node, true, Map.of()));
        }
        String operation = scaleToFourBrokers(instanceId);

        // A pass begins before the new broker serves, and ends after: it wrote nothing the new broker has.
        JsonNode earlier = agent.pull();
        assertThat(userIn(earlier, "admin").get("password").isNull()).as("applied on the brokers then").isTrue();
        brokers.send(3, tokens.of(id), AgentReports.report(id, 3, true, Map.of()));
        agent.report(deliveryApplied(earlier));
        JsonNode newBroker = api.get(path).json().at("/inventory/brokers/3");
        assertThat(newBroker.at("/health/status").asString()).isEqualTo("STARTING");
        assertThat(newBroker.at("/health/message").asString()).contains("credentials are being written");
        assertThat(api.get(path).json().at("/inventory/bootstrapServers").asString()).doesNotContain("10.0.0.3");
        assertThat(api.get("/operations/" + operation).json().get("state").asString()).isEqualTo("RUNNING");

        // The next pass pulls the credentials written again for it, and reports them applied.
        JsonNode later = agent.pull();
        assertThat(later.get("delivery").asLong()).isGreaterThan(earlier.get("delivery").asLong());
        assertThat(userIn(later, "admin").get("password").isNull()).as("sent again for the new broker").isFalse();
        agent.report(deliveryApplied(later));
        awaitOperation(api, operation, "SUCCEEDED");
        JsonNode running = api.get(path).json();
        assertThat(running.at("/inventory/brokers/3/health/status").asString()).isEqualTo("HEALTHY");
        assertThat(running.at("/inventory/bootstrapServers").asString()).contains("10.0.0.3:9092");
        assertThat(running.get("state").asString()).isEqualTo("RUNNING");
    }

    /** Scales the instance from 3 brokers to 4: the update, running once it launched node 3, until node 3 serves. */
    private String scaleToFourBrokers(String instanceId) {
        String path = "/instances/" + instanceId;
        String operation = api.header("If-Match", api.get(path).header("ETag").orElseThrow())
                .patch(path, Map.of("aku", 4)).json().get("id").asString();
        api.await("/operations/" + operation, op -> op.at("/steps/4/state").asString().equals("RUNNING"),
                OPERATION_TIMEOUT);
        return operation;
    }

    /** The report of a pass that applied every user of {@code desired}: those sent with a password, written. */
    private static Map<String, Object> deliveryApplied(JsonNode desired) {
        List<Map<String, Object>> users = new ArrayList<>();
        desired.get("users").forEach(u -> users.add(user(u.get("name").asString(), true,
                u.get("password").isNull() ? null : u.get("credentialVersion").asInt(), null)));
        Map<String, Object> report = report(users, List.of(), List.of(), List.of());
        report.put("delivery", desired.get("delivery").asLong());
        return report;
    }

    @Test
    void theAgentAppliesUsersAndStopsGettingPasswordsItHasApplied() {
        String instanceId = instance();
        String password = api.post(users(instanceId), Map.of("name", "alice")).json().get("password").asString();
        AgentAccess agent = agent(instanceId);

        JsonNode alice = userIn(agent.pull(), "alice");
        assertThat(alice.get("password").asString()).isEqualTo(password);
        assertThat(alice.get("credentialVersion").asInt()).isEqualTo(1);
        agent.report(report(List.of(user("admin", true, 1, null), user("alice", true, 1, null)), List.of(), List.of(),
                List.of()));
        assertThat(api.get(users(instanceId) + "/alice").json().get("status").asString()).isEqualTo("ACTIVE");
        assertThat(userIn(agent.pull(), "alice").get("password").isNull()).as("applied: not served again").isTrue();

        String rotated = api.post(users(instanceId) + "/alice/rotate-password", null).json().get("password").asString();
        assertThat(api.get(users(instanceId) + "/alice").json().get("status").asString()).isEqualTo("UPDATING");
        assertThat(userIn(agent.pull(), "alice").get("password").asString()).isEqualTo(rotated);
        agent.report(report(List.of(user("alice", true, 2, null)), List.of(), List.of(), List.of()));
        assertThat(api.get(users(instanceId) + "/alice").json().get("status").asString()).isEqualTo("ACTIVE");
        assertThat(userIn(agent.pull(), "alice").get("password").isNull()).isTrue();

        // Deleted with Kafka's own tools: the next pass finds it missing, and the password is sent to put it back.
        agent.report(report(List.of(user("alice", false, null, null)), List.of(), List.of(), List.of()));
        assertThat(api.get(users(instanceId) + "/alice").json().get("status").asString()).isEqualTo("RESTORING");
        assertThat(userIn(agent.pull(), "alice").get("password").asString()).isEqualTo(rotated);
        agent.report(report(List.of(user("alice", true, 2, null)), List.of(), List.of(), List.of()));
        JsonNode restored = api.get(users(instanceId) + "/alice").json();
        assertThat(restored.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(restored.get("restoredAt").isNull()).isFalse();
        assertThat(userIn(agent.pull(), "alice").get("password").isNull()).isTrue();
        JsonNode events = api.get("/audit-events?limit=100").json().get("items");
        assertThat(events.findValuesAsString("action")).contains("kafka-user.restored");
        assertThat(api.get("/audit-events?limit=100").body()).contains("system:" + AccessReports.COMPONENT);

        agent.report(report(List.of(user("alice", true, 2, "SASL authentication failed")), List.of(), List.of(), List.of()));
        assertThat(api.get(users(instanceId) + "/alice").json().get("statusMessage").asString())
                .isEqualTo("SASL authentication failed");

        api.delete(users(instanceId) + "/alice");
        JsonNode desired = agent.pull();
        assertThat(desired.get("removedUsers").get(0).asString()).isEqualTo("alice");
        assertThat(desired.get("users").findValuesAsString("name")).doesNotContain("alice");
        agent.report(report(List.of(user("alice", false, null, null)), List.of(), List.of(), List.of()));
        assertThat(api.get(users(instanceId) + "/alice").status()).isEqualTo(404);
    }

    @Test
    void anAclDeletedBehindKeelsBackIsRestoredAndSaysSo() {
        String instanceId = instance();
        String id = api.post(acls(instanceId), Map.of("principal", "User:alice", "resourceType", "GROUP",
                "resourceName", "billing", "patternType", "LITERAL", "operation", "READ", "permission", "ALLOW"))
                .json().get("id").asString();
        AgentAccess agent = agent(instanceId);
        assertThat(agent.pull().get("acls").findValuesAsString("id")).contains(id);
        agent.report(report(List.of(), List.of(acl(id, true, true)), List.of(), List.of()));
        JsonNode active = api.get(acls(instanceId) + "/" + id).json();
        assertThat(active.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(active.get("restoredAt").isNull()).as("its first creation is no restoration").isTrue();

        agent.report(report(List.of(), List.of(acl(id, true, true)), List.of(), List.of()));
        JsonNode restored = api.get(acls(instanceId) + "/" + id).json();
        assertThat(restored.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(restored.get("restoredAt").isNull()).isFalse();
        assertThat(api.get("/audit-events?limit=100").json().get("items").findValuesAsString("action"))
                .contains("kafka-acl.restored");
    }

    @Test
    void topicsAreTheAgentsInventoryWithTheChangesNotYetApplied() {
        String instanceId = instance();
        ApiClient.Response created = api.post(topics(instanceId), Map.of("name", "orders", "partitions", 6,
                "configs", Map.of("retention.ms", "604800000")));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        assertThat(created.json().get("status").asString()).isEqualTo("CREATING");
        assertThat(created.json().get("partitions").isNull()).isTrue();
        assertThat(api.post(topics(instanceId), Map.of("name", "orders")).json().get("type").asString())
                .endsWith("/name-taken");
        ApiClient.Response similar = api.post(topics(instanceId), Map.of("name", "my.topic"));
        assertThat(similar.status()).isEqualTo(202);
        ApiClient.Response collision = api.post(topics(instanceId), Map.of("name", "my_topic"));
        assertThat(collision.status()).as(collision.toString()).isEqualTo(400);
        assertThat(collision.json().get("errors").get(0).get("field").asString()).isEqualTo("name");
        assertThat(api.patch(topics(instanceId) + "/orders", Map.of("partitions", 12)).status())
                .as("not yet created").isEqualTo(409);

        AgentAccess agent = agent(instanceId);
        JsonNode changes = agent.pull().get("topicChanges");
        assertThat(changes.findValuesAsString("name")).containsExactly("orders", "my.topic");
        assertThat(changes.get(0).get("action").asString()).isEqualTo("CREATE");
        assertThat(changes.get(0).get("partitions").asInt()).isEqualTo(6);
        assertThat(changes.get(0).get("replicationFactor").isNull()).isTrue();
        agent.report(report(List.of(), List.of(),
                List.of(change(changes.get(0).get("id").asString(), null),
                        change(changes.get(1).get("id").asString(), "Topic my.topic collides with existing topics: my_topic")),
                List.of(topic("orders", 6, Map.of("retention.ms", "604800000")), topic("external", 3, Map.of()))));

        JsonNode list = api.get(topics(instanceId)).json().get("items");
        assertThat(list.findValuesAsString("name")).containsExactly("external", "my.topic", "orders");
        JsonNode orders = api.get(topics(instanceId) + "/orders").json();
        assertThat(orders.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(orders.get("partitions").asInt()).isEqualTo(6);
        assertThat(orders.get("retentionMs").asLong()).isEqualTo(604800000L);
        assertThat(orders.get("sizeBytes").asLong()).isEqualTo(1024);
        JsonNode failed = api.get(topics(instanceId) + "/my.topic").json();
        assertThat(failed.get("status").asString()).isEqualTo("FAILED");
        assertThat(failed.get("statusMessage").asString()).contains("collides");
        assertThat(agent.pull().get("topicChanges")).as("a refused change is not retried").isEmpty();

        ApiClient.Response fewer = api.patch(topics(instanceId) + "/orders", Map.of("partitions", 6));
        assertThat(fewer.status()).isEqualTo(400);
        assertThat(fewer.json().get("errors").get(0).get("field").asString()).isEqualTo("partitions");
        Map<String, Object> configs = new HashMap<>();
        configs.put("retention.ms", null);
        configs.put("cleanup.policy", "compact");
        ApiClient.Response patched = api.patch(topics(instanceId) + "/orders", Map.of("partitions", 12, "configs", configs));
        assertThat(patched.status()).as(patched.toString()).isEqualTo(202);
        assertThat(patched.json().get("status").asString()).isEqualTo("UPDATING");
        JsonNode update = agent.pull().get("topicChanges").get(0);
        assertThat(update.get("action").asString()).isEqualTo("UPDATE");
        assertThat(update.get("partitions").asInt()).isEqualTo(12);
        assertThat(update.get("configs").has("retention.ms")).isTrue();
        assertThat(update.get("configs").get("retention.ms").isNull()).isTrue();
        agent.report(report(List.of(), List.of(), List.of(change(update.get("id").asString(), null)),
                List.of(topic("orders", 12, Map.of("cleanup.policy", "compact")), topic("external", 3, Map.of()))));
        JsonNode updated = api.get(topics(instanceId) + "/orders").json();
        assertThat(updated.get("partitions").asInt()).isEqualTo(12);
        assertThat(updated.get("retentionMs").isNull()).isTrue();

        ApiClient.Response deleting = api.delete(topics(instanceId) + "/external");
        assertThat(deleting.json().get("status").asString()).isEqualTo("DELETING");
        JsonNode delete = agent.pull().get("topicChanges").get(0);
        assertThat(delete.get("action").asString()).isEqualTo("DELETE");
        agent.report(report(List.of(), List.of(), List.of(change(delete.get("id").asString(), null)),
                List.of(topic("orders", 12, Map.of("cleanup.policy", "compact")))));
        assertThat(api.get(topics(instanceId) + "/external").status()).isEqualTo(404);
        assertThat(api.get(topics(instanceId) + "?limit=1").json().get("nextCursor").isNull()).isFalse();
    }

    @Test
    void aTopicNeverGoesMissingWhileTheAgentsReportMovesItsCreateIntoTheInventory() throws Exception {
        String instanceId = instance();
        AgentAccess agent = agent(instanceId);
        List<Map<String, Object>> inventory = new ArrayList<>();
        AtomicReference<String> reading = new AtomicReference<>();
        List<String> missing = new CopyOnWriteArrayList<>();
        Thread reader = Thread.ofVirtual().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                String name = reading.get();
                if (name != null && api.get(topics(instanceId) + "/" + name).status() == 404) {
                    missing.add(name);
                }
            }
        });
        try {
            for (int i = 0; i < 25; i++) {
                String name = "t" + i;
                assertThat(api.post(topics(instanceId), Map.of("name", name)).status()).isEqualTo(202);
                reading.set(name);
                String change = agent.pull().get("topicChanges").get(0).get("id").asString();
                inventory.add(topic(name, 1, Map.of()));
                agent.report(report(List.of(), List.of(), List.of(change(change, null)), inventory));
            }
        } finally {
            reader.interrupt();
            reader.join();
        }
        assertThat(missing).as("topics answered 404 between their create and the agent's report").isEmpty();
    }

    @Test
    void theAgentMustSendItsInstancesTokenAndAWellFormedReport() {
        String instanceId = instance();
        AgentAccess stranger = new AgentAccess(port, UUID.fromString(instanceId), tokens.of(UUID.randomUUID()));
        assertThat(stranger.send(report(List.of(), List.of(), List.of(), List.of())).status()).isEqualTo(401);

        Map<String, Object> bad = new HashMap<>();
        bad.put("users", List.of(Map.of("name", "alice")));
        bad.put("acls", List.of(Map.of("id", "not-a-uuid", "present", true, "created", false)));
        bad.put("topicChanges", List.of());
        bad.put("topics", List.of(Map.of("name", "t", "partitions", 0, "replicationFactor", 1, "configs", Map.of())));
        bad.put("extra", true);
        ApiClient.Response refused = agent(instanceId).send(bad);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("errors").findValuesAsString("field")).contains("extra");
        Map<String, Object> incomplete = new HashMap<>(bad);
        incomplete.remove("extra");
        incomplete.put("acls", List.of());
        ApiClient.Response fields = agent(instanceId).send(incomplete);
        assertThat(fields.status()).as(fields.toString()).isEqualTo(400);
        assertThat(fields.json().get("errors").findValuesAsString("field"))
                .contains("users[0].present", "topics[0].partitions");
    }

    private static void assertRefusedOn(ApiClient.Response refused, String field) {
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("errors").findValuesAsString("field")).as(refused.toString()).contains(field);
    }

    /** One instance for the tests whose requests are refused, so change nothing. */
    private String sharedInstance() {
        if (shared == null) {
            shared = instance();
        }
        return shared;
    }

    private String instance() {
        return createInstancePlayedByTest(api, instanceBody(accountId, "S3", 1, 3)).get("id").asString();
    }

    private AgentAccess agent(String instanceId) {
        UUID id = UUID.fromString(instanceId);
        return new AgentAccess(port, id, tokens.of(id));
    }

    private static JsonNode userIn(JsonNode desired, String name) {
        for (JsonNode user : desired.get("users")) {
            if (user.get("name").asString().equals(name)) {
                return user;
            }
        }
        throw new AssertionError("No user " + name + " in " + desired);
    }

    /** How many stored values, in any table the password could reach, hold it in the clear. */
    private int storedBytes(String password) {
        byte[] clear = password.getBytes(StandardCharsets.UTF_8);
        int found = 0;
        found += jdbc.sql("SELECT count(*) FROM idempotency_records WHERE position(? IN response_body) > 0")
                .param(clear).query(Integer.class).single();
        found += jdbc.sql("SELECT count(*) FROM kafka_users WHERE position(? IN sealed_password) > 0")
                .param(clear).query(Integer.class).single();
        found += jdbc.sql("SELECT count(*) FROM audit_events WHERE before::text LIKE ? OR after::text LIKE ?")
                .params("%" + password + "%", "%" + password + "%").query(Integer.class).single();
        return found;
    }

    private static String users(String instanceId) {
        return "/instances/" + instanceId + "/users";
    }

    private static String acls(String instanceId) {
        return "/instances/" + instanceId + "/acls";
    }

    private static String topics(String instanceId) {
        return "/instances/" + instanceId + "/topics";
    }
}

package dev.keel.controlplane.contract;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.MarketplaceEmulator;
import dev.keel.controlplane.support.RawHttp;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Walks every operation of the OpenAPI document: as a member of another organization (nothing of
 * ours may be seen or changed: objects answer 404, lists do not show them, a body naming one of our
 * objects is refused and makes nothing), as a viewer (changes answer 403) and without a token (401). New operations are covered as soon as they are in the
 * contract; one without a sample body here fails the test.
 */
class TenancyApiTest extends ApiTest {

    private static final Set<String> REGISTRATION_OPERATIONS =
            Set.of("getMarketplaceRegistration", "linkMarketplaceRegistration");

    private final OpenApiDocument contract = new OpenApiDocument();

    @Value("${keel.marketplace.product-code}")
    String productCode;
    private ApiClient owner;
    private Map<String, String> ids;
    private List<String> secrets;
    /** A Marketplace registration the owner linked. */
    private JsonNode registration;

    @BeforeEach
    void ownerData() {
        owner = api(ADMIN);
        JsonNode account = registerAccount(owner);
        Map<String, Object> body = instanceBody(account.get("id").asString(), "FSWAL", 3, 6);
        JsonNode instance = createRunningInstance(owner, body);
        String operationId = owner.get("/instances/" + instance.get("id").asString() + "/operations").json()
                .get("items").get(0).get("id").asString();
        String instanceId = instance.get("id").asString();
        String aclId = owner.get("/instances/" + instanceId + "/acls").json().get("items").get(0).get("id").asString();
        ApiClient.Response topic = owner.post("/instances/" + instanceId + "/topics", Map.of("name", "orders"));
        assertThat(topic.status()).as(topic.toString()).isEqualTo(202);
        ids = Map.of("cloudAccountId", account.get("id").asString(), "instanceId", instanceId,
                "operationId", operationId, "userName", "admin", "aclId", aclId, "topicName", "orders");
        registration = linkedRegistration();
        secrets = List.of(account.get("id").asString(), account.get("name").asString(), account.get("roleArn").asString(),
                account.get("externalId").asString(), instance.get("id").asString(), instance.get("name").asString(),
                operationId, registration.get("subscriptionId").asString());
    }

    @Test
    void anotherOrganizationSeesAndChangesNothingOfOurs() {
        ApiClient stranger = api(OTHER_ORG_ADMIN);
        List<OpenApiDocument.Operation> operations = contract.operations();
        assertThat(operations).hasSizeGreaterThanOrEqualTo(17);
        List<String> naming = new ArrayList<>();
        for (OpenApiDocument.Operation op : operations) {
            Map<String, Object> body = sampleBody(op);
            String auditedBefore = newestAuditEvent(stranger);
            ApiClient.Response response = request(stranger, op).send(op.method(), op.expand(pathIds()), body);
            String asked = op.expand(pathIds()) + body;
            assertThat(secrets).as("%s leaked data: %s", op, response)
                    .filteredOn(secret -> !asked.contains(secret))
                    .noneMatch(response.body()::contains);
            if (REGISTRATION_OPERATIONS.contains(op.id())) {
                // A registration reference is bound to the browser AWS sent, not to an organization: without that
                // browser's cookie it is refused as such, naming no organization, and links nothing more.
                assertThat(response.status()).as("%s → %s", op, response).isEqualTo(403);
                assertThat(response.json().get("type").asString()).endsWith("/registration-other-browser");
                assertThat(response.body()).doesNotContain("acme");
                assertThat(newestAuditEvent(stranger)).as("%s recorded a change", op).isEqualTo(auditedBefore);
            } else if (op.hasPathParameters()) {
                assertThat(response.status()).as("%s → %s", op, response).isEqualTo(404);
                assertThat(response.header("Content-Type")).as(op.toString()).contains("application/problem+json");
            } else if (!referencedIds(body).isEmpty()) {
                assertRefusedAndNothingMade(stranger, op, body, response, auditedBefore);
                naming.add(op.id());
            } else {
                assertThat(response.status()).as("%s → %s", op, response).isLessThan(500);
            }
        }
        assertThat(naming).as("operations whose body names one of our objects").contains("createInstance");
        JsonNode instance = owner.get("/instances/" + ids.get("instanceId")).json();
        assertThat(instance.get("state").asString()).as("nothing was changed").isEqualTo("RUNNING");
        assertThat(instance.get("specVersion").asInt()).isEqualTo(1);
        assertThat(owner.get("/cloud-accounts/" + ids.get("cloudAccountId")).status()).isEqualTo(200);
    }

    @Test
    void viewersCanReadButChangeNothing() {
        ApiClient viewer = api(VIEWER);
        for (OpenApiDocument.Operation op : contract.operations()) {
            ApiClient.Response response = request(viewer, op).send(op.method(), op.expand(pathIds()), sampleBody(op));
            if (op.requiredRole().equals("viewer")) {
                assertThat(response.status()).as("%s → %s", op, response).isNotIn(401, 403).isLessThan(500);
            } else {
                assertThat(response.status()).as("%s → %s", op, response).isEqualTo(403);
                assertThat(response.json().get("detail").asString()).contains("viewer");
            }
        }
        assertThat(owner.get("/instances/" + ids.get("instanceId")).json().get("specVersion").asInt()).isEqualTo(1);
    }

    @Test
    void everyOperationNeedsAToken() {
        for (OpenApiDocument.Operation op : contract.operations()) {
            ApiClient.Response response = request(anonymous(), op).send(op.method(), op.expand(pathIds()), sampleBody(op));
            assertThat(response.status()).as("%s → %s", op, response).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).as(op.toString()).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        }
    }

    /**
     * A body naming one of our objects (a create in our cloud account) is refused as if the object did not exist,
     * naming the field, and nothing is made: no instance of that name in either organization, no audit event.
     */
    private void assertRefusedAndNothingMade(ApiClient stranger, OpenApiDocument.Operation op, Map<String, Object> body,
                                             ApiClient.Response response, String auditedBefore) {
        assertThat(response.status()).as("%s → %s", op, response).isEqualTo(400);
        assertThat(response.json().get("errors").findValuesAsString("field")).as("%s → %s", op, response)
                .containsAll(referencedIds(body).keySet());
        Object name = body.get("name");
        for (ApiClient client : List.of(stranger, owner)) {
            for (String state : List.of("", "&state=DELETED")) {
                assertThat(client.get("/instances?name=" + name + state).json().get("items")).as("%s made %s", op, name).isEmpty();
            }
        }
        assertThat(newestAuditEvent(stranger)).as("%s recorded a change", op).isEqualTo(auditedBefore);
    }

    /** The owner's objects by path parameter, and the registration reference the owner linked. */
    private Map<String, String> pathIds() {
        Map<String, String> all = new LinkedHashMap<>(ids);
        all.put("reference", registration.get("reference").asString());
        return all;
    }

    /** A Marketplace buyer the owner's admin linked to the owner's organization, which had no subscription. */
    private JsonNode linkedRegistration() {
        noSubscription();
        JsonNode buyer = MarketplaceEmulator.mint(productCode, null);
        RawHttp.Response registered = RawHttp.send(port, "POST", "/marketplace/register",
                Map.of("Content-Type", "application/x-www-form-urlencoded"),
                ("x-amzn-marketplace-token=" + buyer.get("registrationToken").asString()).getBytes());
        String location = registered.header("Location");
        String browser = registered.header("Set-Cookie");
        ApiClient.Response linked = owner.header("Cookie", browser.substring(0, browser.indexOf(';'))).post("/marketplace/registrations",
                Map.of("reference", location.substring(location.indexOf("reference=") + "reference=".length())));
        assertThat(linked.status()).as(linked.toString()).isEqualTo(201);
        return linked.json();
    }

    /** The subscription the owner linked goes: it would decide what other tests may create. */
    @AfterEach
    void noSubscription() {
        Database.withoutSubscriptions("acme");
    }

    /** The body's top-level fields whose value is one of our objects' ids, by field name. */
    private Map<String, Object> referencedIds(Map<String, Object> body) {
        if (body == null) {
            return Map.of();
        }
        Map<String, Object> referenced = new LinkedHashMap<>(body);
        referenced.values().removeIf(value -> !ids.containsValue(String.valueOf(value)));
        return referenced;
    }

    /** The id of the newest audit event the client's organization has, or "" when it has none. */
    private static String newestAuditEvent(ApiClient client) {
        JsonNode items = client.get("/audit-events?limit=1").json().get("items");
        return items.isEmpty() ? "" : items.get(0).get("id").asString();
    }

    /** Headers that would make the request succeed for the owner. */
    private static ApiClient request(ApiClient client, OpenApiDocument.Operation op) {
        return op.id().equals("updateInstance") ? client.header("If-Match", "\"1\"") : client;
    }

    /** A request body that would succeed for the owner, so a refusal is about who asks. */
    private Map<String, Object> sampleBody(OpenApiDocument.Operation op) {
        return switch (op.id()) {
            case "registerCloudAccount" -> Map.of("name", unique("acct"), "awsAccountId", "000000000000",
                    "roleArn", "arn:aws:iam::000000000000:role/" + unique("Role"), "regions", List.of("us-east-1"));
            case "createInstance", "planInstanceCreation" -> instanceBody(ids.get("cloudAccountId"), "S3", 1, 3);
            case "planInstance" -> Map.of("aku", 9);
            case "updateInstance" -> Map.of("aku", 9);
            case "linkMarketplaceRegistration" -> Map.of("reference", registration.get("reference").asString());
            case "estimateCost" -> Map.of("region", "us-east-1", "zones", 3, "wal", Map.of("type", "S3"), "aku", 3);
            case "setBillingBudget" -> Map.of();
            case "createKafkaUser" -> Map.of("name", unique("user"));
            case "createKafkaAcl" -> Map.of("principal", "User:" + unique("user"), "resourceType", "TOPIC",
                    "resourceName", "orders", "patternType", "LITERAL", "operation", "READ", "permission", "ALLOW");
            case "createKafkaTopic" -> Map.of("name", unique("topic"));
            case "updateKafkaTopic" -> Map.of("configs", Map.of("retention.ms", "86400000"));
            case "getCurrentOrganization", "getOnboardingTemplate", "getMarketplaceRegistration", "listCloudAccounts", "getCloudAccount", "verifyCloudAccount",
                 "listCloudAccountNetworks",
                 "deleteCloudAccount", "listInstances",
                 "getInstance", "getInstanceCaCertificate", "deleteInstance", "repairInstance", "listInstanceOperations", "getInstanceMetrics", "getInstanceCostEstimate", "getOperation",
                 "cancelOperation", "getSizingCatalog", "listAuditEvents", "getBillingUsage",
                 "getBillingSubscription", "getBillingBudget", "listMeteringRecords", "listKafkaUsers", "getKafkaUser",
                 "deleteKafkaUser", "rotateKafkaUserPassword", "listKafkaAcls", "getKafkaAcl", "deleteKafkaAcl",
                 "listKafkaTopics", "getKafkaTopic", "deleteKafkaTopic" -> null;
            default -> throw new AssertionError("Add a sample request for new operation " + op);
        };
    }
}

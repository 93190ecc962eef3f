package dev.keel.controlplane.instances;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.fixtures.NoCloudProvisioningDriver;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class InstanceLifecycleApiTest extends ApiTest {

    private ApiClient api;
    private String accountId;

    @BeforeEach
    void account() {
        api = api(EDITOR);
        accountId = registerAccount(api).get("id").asString();
    }

    @Test
    void aBadSpecIsRefusedWithTheFieldNamedAndNothingIsCreated() {
        Map<String, Object> body = instanceBody(accountId, "FSWAL", 3, 9);
        body.put("fsx", Map.of("throughputMBps", 384, "count", 1));

        ApiClient.Response response = api.post("/instances", body);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("Content-Type")).contains("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("https://keel.dev/problems/validation-failed");
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("fsx.count");
        assertThat(problem.get("errors").get(0).get("message").asString())
                .contains("180 MiB/s").contains("150 MiB/s").contains("2 × 384 MBps or 1 × 768 MBps");
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items").isEmpty()).isTrue();
    }

    @Test
    void malformedJsonAndUnknownPropertiesNameTheField() {
        Map<String, Object> body = instanceBody(accountId, "S3", 3, 3);
        body.put("color", "blue");
        ApiClient.Response unknown = api.post("/instances", body);
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().get("errors").get(0).get("field").asString()).isEqualTo("color");

        body.remove("color");
        body.put("wal", Map.of("type", "NVME"));
        ApiClient.Response badEnum = api.post("/instances", body);
        assertThat(badEnum.status()).isEqualTo(400);
        assertThat(badEnum.json().get("errors").get(0).get("field").asString()).isEqualTo("wal.type");
        assertThat(badEnum.json().get("errors").get(0).get("message").asString()).contains("EBS", "S3", "FSWAL");

        ApiClient.Response notJson = api.post("/instances", "{\"name\": ");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.header("Content-Type")).contains("application/problem+json");
    }

    @Test
    void aGoodSpecIsAcceptedAndItsOperationBringsTheInstanceToRunning() {
        Map<String, Object> body = instanceBody(accountId, "FSWAL", 3, 6);

        ApiClient.Response accepted = api.post("/instances", body);

        assertThat(accepted.status()).isEqualTo(202);
        JsonNode operation = accepted.json();
        assertThat(accepted.header("Location")).contains("/api/v1/operations/" + operation.get("id").asString());
        assertThat(operation.get("type").asString()).isEqualTo("CREATE");
        assertThat(operation.get("steps").size()).isGreaterThan(1);
        JsonNode done = awaitOperation(api, operation.get("id").asString(), "SUCCEEDED");
        assertThat(done.get("progress").get("completedSteps").asInt()).isEqualTo(done.get("progress").get("totalSteps").asInt());
        assertThat(done.get("steps")).allSatisfy(step -> assertThat(step.get("attempts").asInt()).isEqualTo(1));

        ApiClient.Response instance = api.get("/instances/" + operation.get("instanceId").asString());
        assertThat(instance.status()).isEqualTo(200);
        assertThat(instance.header("ETag")).contains("\"1\"");
        JsonNode view = instance.json();
        assertThat(view.get("state").asString()).isEqualTo("RUNNING");
        assertThat(view.get("capacity").get("writeMiBps").asDouble()).isEqualTo(120);
        assertThat(view.get("inventory").get("brokers").size()).isEqualTo(view.get("sizing").get("brokerCount").asInt());
        assertThat(view.get("inventory").get("bootstrapServers").asString()).contains(".nocloud.invalid:9092");
        assertThat(view.get("conditions")).anySatisfy(condition -> {
            assertThat(condition.get("type").asString()).isEqualTo("Ready");
            assertThat(condition.get("status").asString()).isEqualTo("True");
        });
    }

    @Test
    void namesAreUniqueWithinTheOrganization() {
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        assertThat(api.post("/instances", body).status()).isEqualTo(202);
        ApiClient.Response again = api.post("/instances", body);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().get("type").asString()).endsWith("/name-taken");
        assertThat(again.json().get("errors").get(0).get("field").asString()).isEqualTo("name");
    }

    @Test
    void anUnknownCloudAccountIsAFieldError() {
        Map<String, Object> body = instanceBody("00000000-0000-0000-0000-000000000000", "S3", 1, 3);
        ApiClient.Response response = api.post("/instances", body);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("cloudAccountId");
    }

    @Test
    void aRegionTheCatalogDoesNotOfferIsAFieldError() {
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        body.put("region", "us-west-2");
        body.put("network", Map.of("vpcId", "vpc-0a1b2c3d4e5f67890",
                "subnets", List.of(Map.of("availabilityZone", "us-west-2a", "subnetId", "subnet-00000000000000000"))));
        ApiClient.Response response = api.post("/instances", body);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("region");
        assertThat(response.json().get("errors").get(0).get("message").asString())
                .contains("'us-west-2' is not a supported region; choose one of [us-east-1]");
    }

    @Test
    void aRegionWhereNoBrokerCouldBootIsRefusedBeforeAnythingIsCreated() {
        String imageless = accountWithRole("imageless");
        Map<String, Object> body = instanceBody(imageless, "S3", 1, 3);
        for (String path : List.of("/instances/plan", "/instances")) {
            ApiClient.Response response = api.post(path, body);
            assertThat(response.status()).as(path + ": " + response).isEqualTo(400);
            assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("region");
            assertThat(response.json().get("errors").get(0).get("message").asString())
                    .contains("Amazon Linux 2023", "us-east-1");
        }
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items").isEmpty()).isTrue();
    }

    @Test
    void subnetsWithoutThePathsOutTheSpecNeedsAreRefusedBeforeAnythingIsCreated() {
        String isolated = accountWithRole("isolated");
        Map<String, Object> body = instanceBody(isolated, "S3", 3, 3);
        for (String mode : List.of("CREATE", "REQUIRE_EXISTING")) {
            body.put("network", withS3GatewayEndpoint(body, mode));
            for (String path : List.of("/instances/plan", "/instances")) {
                ApiClient.Response response = api.post(path, body);
                assertThat(response.status()).as(mode + " " + path + ": " + response).isEqualTo(400);
                List<String> fields = new ArrayList<>();
                response.json().get("errors").forEach(e -> {
                    fields.add(e.get("field").asString());
                    assertThat(e.get("message").asString()).contains(NoCloudProvisioningDriver.ROUTE_TABLE);
                });
                List<String> expected = new ArrayList<>(List.of("network.subnets[0].subnetId",
                        "network.subnets[1].subnetId", "network.subnets[2].subnetId"));
                if (mode.equals("REQUIRE_EXISTING")) {
                    expected.add("network.s3GatewayEndpoint");
                }
                assertThat(fields).as(mode + " " + path).containsExactlyElementsOf(expected);
            }
        }
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items").isEmpty()).isTrue();

        // Leaving the VPC's routing alone, the spec needs no path Keel checks.
        body.put("network", withS3GatewayEndpoint(body, "NONE"));
        ApiClient.Response plan = api.post("/instances/plan", body);
        assertThat(plan.status()).as(plan.toString()).isEqualTo(200);
    }

    /** A cloud account whose role's name asks the no-cloud driver for one of its refusals. */
    private String accountWithRole(String rolePrefix) {
        return api.post("/cloud-accounts", Map.of("name", unique("acct"), "awsAccountId", "000000000000",
                "roleArn", "arn:aws:iam::000000000000:role/" + unique(rolePrefix), "regions", List.of("us-east-1")))
                .json().get("id").asString();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withS3GatewayEndpoint(Map<String, Object> body, String mode) {
        Map<String, Object> network = new LinkedHashMap<>((Map<String, Object>) body.get("network"));
        network.put("s3GatewayEndpoint", mode);
        return network;
    }

    @Test
    void updatesNeedIfMatchAndAStaleVersionIsRefused() {
        JsonNode instance = createRunningInstance(api, instanceBody(accountId, "FSWAL", 3, 6));
        String path = "/instances/" + instance.get("id").asString();

        ApiClient.Response missing = api.patch(path, Map.of("aku", 9));
        assertThat(missing.status()).isEqualTo(428);
        assertThat(missing.json().get("errors").get(0).get("field").asString()).isEqualTo("If-Match");
        for (String malformed : List.of("1", "W/\"1\"", "\"1\", \"2\"")) {
            ApiClient.Response refused = api.header("If-Match", malformed).patch(path, Map.of("aku", 9));
            assertThat(refused.status()).as(malformed + ": " + refused).isEqualTo(400);
            assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("If-Match");
        }

        ApiClient.Response scaled = api.header("If-Match", "\"1\"").patch(path, Map.of("aku", 9));
        assertThat(scaled.status()).as(scaled.toString()).isEqualTo(202);
        assertThat(scaled.header("ETag")).contains("\"2\"");
        awaitOperation(api, scaled.json().get("id").asString(), "SUCCEEDED");

        ApiClient.Response stale = api.header("If-Match", "\"1\"").patch(path, Map.of("aku", 12));
        assertThat(stale.status()).isEqualTo(412);
        assertThat(stale.json().get("detail").asString()).contains("spec version 2");

        JsonNode after = api.get(path).json();
        assertThat(after.get("spec").get("aku").asInt()).isEqualTo(9);
        assertThat(after.get("specVersion").asInt()).isEqualTo(2);
        assertThat(after.get("state").asString()).isEqualTo("RUNNING");
        assertThat(after.get("inventory").get("brokers").size()).isEqualTo(8);
    }

    @Test
    void anUpdateIsValidatedAgainstTheWholeSpec() {
        JsonNode instance = createRunningInstance(api, instanceBody(accountId, "FSWAL", 3, 6));
        ApiClient etagged = api.header("If-Match", "\"1\"");
        String path = "/instances/" + instance.get("id").asString();

        ApiClient.Response tooMuch = etagged.patch(path, Map.of("aku", 18));
        assertThat(tooMuch.status()).isEqualTo(400);
        assertThat(tooMuch.json().get("errors").get(0).get("field").asString()).isEqualTo("fsx.count");

        ApiClient.Response newWal = etagged.patch(path, Map.of("wal", Map.of("type", "S3")));
        assertThat(newWal.status()).isEqualTo(400);
        assertThat(newWal.json().get("type").asString()).endsWith("/replacement-required");
        assertThat(newWal.json().get("errors").get(0).get("field").asString()).isEqualTo("wal.type");
        ApiClient.Response sameWal = etagged.patch(path, Map.of("wal", Map.of("type", "FSWAL")));
        assertThat(sameWal.json().get("type").asString()).as(sameWal.toString()).endsWith("/replacement-required");

        ApiClient.Response nothing = etagged.patch(path, Map.of("aku", 6));
        assertThat(nothing.status()).isEqualTo(400);

        ApiClient.Response moreFsx = etagged.patch(path, Map.of("aku", 18, "fsx", Map.of("count", 2)));
        assertThat(moreFsx.status()).as(moreFsx.toString()).isEqualTo(202);
        awaitOperation(api, moreFsx.json().get("id").asString(), "SUCCEEDED");
        assertThat(api.get(path).json().get("spec").get("fsx").get("count").asInt()).isEqualTo(2);
    }

    @Test
    void deleteRunsAnOperationThatEndsInDeletedAndFreesTheName() {
        Map<String, Object> body = instanceBody(accountId, "EBS", 1, 3);
        JsonNode instance = createRunningInstance(api, body);
        String path = "/instances/" + instance.get("id").asString();

        ApiClient.Response deleting = api.delete(path);

        assertThat(deleting.status()).isEqualTo(202);
        assertThat(deleting.json().get("type").asString()).isEqualTo("DELETE");
        awaitOperation(api, deleting.json().get("id").asString(), "SUCCEEDED");
        JsonNode deleted = api.get(path).json();
        assertThat(deleted.get("state").asString()).isEqualTo("DELETED");
        assertThat(deleted.get("inventory").get("resources")).as("only the data bucket is kept").singleElement()
                .satisfies(kept -> assertThat(kept.get("id").asString()).endsWith("-data"));
        assertThat(api.delete(path).status()).isEqualTo(409);
        assertThat(api.post("/instances", body).status()).as("the name is free again").isEqualTo(202);
    }

    @Test
    void aRepairOnRequestConvergesARunningInstanceAndIsRefusedOtherwise() {
        JsonNode instance = createRunningInstance(api, instanceBody(accountId, "S3", 1, 3));
        String path = "/instances/" + instance.get("id").asString();

        ApiClient.Response repairing = api.post(path + "/repair", null);

        assertThat(repairing.status()).isEqualTo(202);
        JsonNode repair = repairing.json();
        assertThat(repair.get("type").asString()).isEqualTo("REPAIR");
        assertThat(repair.get("requestedBy").asString()).isEqualTo("acme-editor");
        assertThat(repair.get("reason").isNull()).as("a user's repair needs no reason").isTrue();
        awaitOperation(api, repair.get("id").asString(), "SUCCEEDED");
        assertThat(api.get(path).json().get("state").asString()).isEqualTo("RUNNING");
        assertThat(api(VIEWER).post(path + "/repair", null).status()).isEqualTo(403);

        awaitOperation(api, api.delete(path).json().get("id").asString(), "SUCCEEDED");
        ApiClient.Response deleted = api.post(path + "/repair", null);
        assertThat(deleted.status()).isEqualTo(409);
        assertThat(deleted.json().get("detail").asString()).contains("DELETED");
    }

    @Test
    void listsArePaginatedAndFiltered() {
        String prefix = unique("page");
        for (int i = 0; i < 3; i++) {
            Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
            body.put("name", prefix + "-" + i);
            assertThat(api.post("/instances", body).status()).isEqualTo(202);
        }
        JsonNode first = api.get("/instances?limit=2&name=" + prefix).json();
        assertThat(first.get("items").size()).isEqualTo(2);
        assertThat(first.get("items").get(0).get("name").asString()).isEqualTo(prefix + "-2");
        String cursor = first.get("nextCursor").asString();
        JsonNode second = api.get("/instances?limit=2&name=" + prefix + "&cursor=" + cursor).json();
        assertThat(second.get("items").size()).isEqualTo(1);
        assertThat(second.get("items").get(0).get("name").asString()).isEqualTo(prefix + "-0");
        assertThat(second.get("nextCursor").isNull()).isTrue();

        assertThat(api.get("/instances?state=DELETED&name=" + prefix).json().get("items").isEmpty()).isTrue();
        ApiClient.Response badState = api.get("/instances?state=SLEEPING");
        assertThat(badState.status()).isEqualTo(400);
        assertThat(badState.json().get("errors").get(0).get("field").asString()).isEqualTo("state");
        assertThat(api.get("/instances?limit=0").status()).isEqualTo(400);
        assertThat(api.get("/instances?cursor=garbage").status()).isEqualTo(400);
    }

    @Test
    void unknownAndMalformedIdsAreProblems() {
        ApiClient.Response missing = api.get("/instances/00000000-0000-0000-0000-000000000000");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.header("Content-Type")).contains("application/problem+json");
        ApiClient.Response malformed = api.get("/instances/not-a-uuid");
        assertThat(malformed.status()).isEqualTo(404);
        assertThat(malformed.header("Content-Type")).contains("application/problem+json");
    }

    @Test
    void aPlanListsWhatACreateWouldMakeAndCreatesNothing() {
        Map<String, Object> body = instanceBody(accountId, "FSWAL", 3, 6);
        ApiClient.Response planned = api(VIEWER).post("/instances/plan", body);

        assertThat(planned.status()).as(planned.toString()).isEqualTo(200);
        JsonNode plan = planned.json();
        assertThat(plan.get("kind").asString()).isEqualTo("CREATE");
        assertThat(plan.get("changes")).allSatisfy(c -> assertThat(c.get("action").asString()).isEqualTo("CREATE"));
        assertThat(plan.get("changes")).filteredOn(c -> c.get("resourceType").asString().equals("broker")).hasSize(6);
        assertThat(plan.get("changes")).filteredOn(c -> c.get("resourceType").asString().equals("fsx-file-system")).hasSize(1);
        assertThat(plan.get("summary").get("create").asInt()).isEqualTo(plan.get("changes").size());
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items").isEmpty()).isTrue();

        body.put("aku", 2);
        assertThat(api.post("/instances/plan", body).json().get("errors").get(0).get("field").asString()).isEqualTo("aku");
    }
}

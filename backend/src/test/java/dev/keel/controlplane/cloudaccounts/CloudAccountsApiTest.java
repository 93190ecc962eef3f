package dev.keel.controlplane.cloudaccounts;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import static org.assertj.core.api.Assertions.assertThat;

class CloudAccountsApiTest extends ApiTest {

    @Test
    void registeringReturnsTheAccountWithTheOrganizationsExternalId() {
        ApiClient api = api(EDITOR);
        ApiClient.Response response = api.post("/cloud-accounts", Map.of("name", unique("prod"),
                "awsAccountId", "123456789012", "roleArn", "arn:aws:iam::123456789012:role/" + unique("Keel"),
                "regions", List.of("us-east-1")));

        assertThat(response.status()).isEqualTo(201);
        JsonNode account = response.json();
        assertThat(response.header("Location")).contains("/api/v1/cloud-accounts/" + account.get("id").asString());
        assertThat(account.get("status").asString()).as("the no-cloud driver allows every role").isEqualTo("VERIFIED");
        assertThat(account.get("verification").get("checkedAt").isNull()).isFalse();
        assertThat(account.get("externalId").asString())
                .isEqualTo(api.get("/organizations/me").json().get("externalId").asString());
        assertThat(api.get("/cloud-accounts/" + account.get("id").asString()).json()).isEqualTo(account);
    }

    @Test
    void aRoleThatFailsVerificationSaysWhatIsMissingAndCannotHostInstances() {
        ApiClient api = api(EDITOR);
        JsonNode account = api.post("/cloud-accounts", Map.of("name", unique("weak"), "awsAccountId", "123456789012",
                "roleArn", "arn:aws:iam::123456789012:role/" + unique("unverifiable"), "regions", List.of("us-east-1"))).json();
        String id = account.get("id").asString();

        assertThat(account.get("status").asString()).isEqualTo("VERIFICATION_FAILED");
        assertThat(account.get("verification").get("missingActions")).extracting(JsonNode::asString)
                .containsExactly("ec2:RunInstances");
        assertThat(account.get("verification").get("message").asString()).contains("ec2:RunInstances");
        ApiClient.Response create = api.post("/instances", instanceBody(id, "S3", 1, 3));
        assertThat(create.status()).isEqualTo(400);
        assertThat(create.json().get("errors").get(0).get("field").asString()).isEqualTo("cloudAccountId");
        assertThat(create.json().get("errors").get(0).get("message").asString())
                .contains("VERIFICATION_FAILED").contains("ec2:RunInstances").contains("/cloud-accounts/" + id + "/verify");

        ApiClient.Response again = api.post("/cloud-accounts/" + id + "/verify", null);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().get("status").asString()).isEqualTo("VERIFICATION_FAILED");
        assertThat(Instant.parse(again.json().get("verification").get("checkedAt").asString()))
                .isAfterOrEqualTo(Instant.parse(account.get("verification").get("checkedAt").asString()));
        assertThat(api(VIEWER).post("/cloud-accounts/" + id + "/verify", null).status()).isEqualTo(403);
    }

    @Test
    void theAccountsNetworksAreListedPerRegionOnceItIsVerified() {
        ApiClient api = api(VIEWER);
        String id = registerAccount(api(EDITOR)).get("id").asString();

        JsonNode networks = api.get("/cloud-accounts/" + id + "/networks?region=us-east-1").json();

        assertThat(networks.get("region").asString()).isEqualTo("us-east-1");
        assertThat(networks.get("vpcs")).singleElement().satisfies(vpc -> {
            assertThat(vpc.get("vpcId").asString()).isEqualTo("vpc-0a1b2c3d4e5f67890");
            assertThat(vpc.get("subnets")).extracting(s -> s.get("availabilityZone").asString())
                    .containsExactly("us-east-1a", "us-east-1b", "us-east-1c");
        });
        ApiClient.Response otherRegion = api.get("/cloud-accounts/" + id + "/networks?region=ap-southeast-1");
        assertThat(otherRegion.status()).isEqualTo(400);
        assertThat(otherRegion.json().get("errors").get(0).get("field").asString()).isEqualTo("region");

        String failed = api(EDITOR).post("/cloud-accounts", Map.of("name", unique("weak"), "awsAccountId", "123456789012",
                "roleArn", "arn:aws:iam::123456789012:role/" + unique("unverifiable"), "regions", List.of("us-east-1")))
                .json().get("id").asString();
        ApiClient.Response unverified = api.get("/cloud-accounts/" + failed + "/networks?region=us-east-1");
        assertThat(unverified.status()).isEqualTo(409);
        assertThat(unverified.json().get("detail").asString()).contains("VERIFICATION_FAILED");
    }

    @Test
    void invalidRegistrationsNameEachField() {
        ApiClient.Response response = api(EDITOR).post("/cloud-accounts", Map.of("name", "X",
                "awsAccountId", "12345", "roleArn", "arn:aws:iam::999999999999:user/bob",
                "regions", List.of("us-east-1", "moon-1")));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors")).extracting(e -> e.get("field").asString())
                .containsExactly("name", "awsAccountId", "roleArn", "regions[1]");
    }

    @Test
    void theRoleMustBelongToTheAccount() {
        ApiClient.Response response = api(EDITOR).post("/cloud-accounts", Map.of("name", unique("prod"),
                "awsAccountId", "123456789012", "roleArn", "arn:aws:iam::210987654321:role/Keel",
                "regions", List.of("us-east-1")));
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors").get(0).get("message").asString()).contains("210987654321");
    }

    @Test
    void aNameOrRoleCanBeRegisteredOnce() {
        ApiClient api = api(EDITOR);
        String name = unique("prod");
        String role = "arn:aws:iam::123456789012:role/" + unique("Keel");
        assertThat(api.post("/cloud-accounts", Map.of("name", name, "awsAccountId", "123456789012", "roleArn", role,
                "regions", List.of("us-east-1"))).status()).isEqualTo(201);
        ApiClient.Response sameName = api.post("/cloud-accounts", Map.of("name", name, "awsAccountId", "123456789012",
                "roleArn", role + "-2", "regions", List.of("us-east-1")));
        assertThat(sameName.status()).isEqualTo(409);
        assertThat(sameName.json().get("errors").get(0).get("field").asString()).isEqualTo("name");
        ApiClient.Response sameRole = api.post("/cloud-accounts", Map.of("name", unique("other"),
                "awsAccountId", "123456789012", "roleArn", role, "regions", List.of("us-east-1")));
        assertThat(sameRole.status()).isEqualTo(409);
        assertThat(sameRole.json().get("errors").get(0).get("field").asString()).isEqualTo("roleArn");
    }

    @Test
    void aRoleAnotherOrganizationRegisteredAnswersLikeARoleThatDoesNotExist() {
        String role = "arn:aws:iam::123456789012:role/" + unique("Keel");
        JsonNode first = register(api(EDITOR), unique("prod"), role).json();
        assertThat(first.get("status").asString()).isEqualTo("VERIFIED");

        ApiClient other = api(OTHER_ORG_ADMIN);
        ApiClient.Response missing = register(other, unique("missing"), "arn:aws:iam::123456789012:role/" + unique("never-deployed"));
        // The same role under another path and in another case is the same IAM role.
        String variant = role.replace(":role/", ":role/teams/").toLowerCase();
        ApiClient.Response taken = register(other, unique("taken"), variant);

        assertThat(taken.status()).isEqualTo(missing.status()).isEqualTo(201);
        assertThat(taken.header("Content-Type")).isEqualTo(missing.header("Content-Type"));
        assertSameAnswer(taken.json(), missing.json());
        String takenId = taken.json().get("id").asString();
        ApiClient.Response again = other.post("/cloud-accounts/" + takenId + "/verify", null);
        ApiClient.Response missingAgain = other.post("/cloud-accounts/" + missing.json().get("id").asString() + "/verify", null);
        assertThat(again.status()).isEqualTo(missingAgain.status()).isEqualTo(200);
        assertSameAnswer(again.json(), missingAgain.json());

        // The first organization keeps its role, and its own second registration of it is still refused as such.
        ApiClient api = api(EDITOR);
        String firstId = first.get("id").asString();
        assertThat(api.post("/cloud-accounts/" + firstId + "/verify", null).json().get("status").asString())
                .isEqualTo("VERIFIED");
        ApiClient.Response twice = register(api, unique("again"), role);
        assertThat(twice.status()).isEqualTo(409);
        assertThat(twice.json().get("type").asString()).isEqualTo("https://keel.dev/problems/role-arn-taken");

        // Once the first organization lets the role go, the other one's account can claim it.
        assertThat(api.delete("/cloud-accounts/" + firstId).status()).isEqualTo(204);
        assertThat(other.post("/cloud-accounts/" + takenId + "/verify", null).json().get("status").asString())
                .isEqualTo("VERIFIED");
    }

    @Test
    void ofTwoOrganizationsRegisteringOneRoleAtOnceOnlyOneHoldsIt() throws Exception {
        for (int round = 0; round < 4; round++) {
            String role = "arn:aws:iam::123456789012:role/" + unique("Raced");
            List<ApiClient> callers = List.of(api(EDITOR), api(OTHER_ORG_ADMIN));
            try (var pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
                var start = new java.util.concurrent.CountDownLatch(1);
                List<java.util.concurrent.Future<ApiClient.Response>> answers = new java.util.ArrayList<>();
                for (ApiClient caller : callers) {
                    answers.add(pool.submit(() -> {
                        start.await();
                        return register(caller, unique("raced"), role);
                    }));
                }
                start.countDown();
                List<String> statuses = new java.util.ArrayList<>();
                for (var answer : answers) {
                    ApiClient.Response response = answer.get();
                    assertThat(response.status()).as(response.toString()).isEqualTo(201);
                    statuses.add(response.json().get("status").asString());
                }
                assertThat(statuses).containsExactlyInAnyOrder("VERIFIED", "VERIFICATION_FAILED");
            }
        }
    }

    private static ApiClient.Response register(ApiClient api, String name, String roleArn) {
        return api.post("/cloud-accounts", Map.of("name", name, "awsAccountId", roleArn.split(":")[4],
                "roleArn", roleArn, "regions", List.of("us-east-1")));
    }

    /** The same fields and values but for the account's own (its id, name, role, times), which are the caller's. */
    private static void assertSameAnswer(JsonNode taken, JsonNode missing) {
        assertThat(fieldNames(taken)).isEqualTo(fieldNames(missing));
        assertThat(taken.get("status").asString()).isEqualTo(missing.get("status").asString())
                .isEqualTo("VERIFICATION_FAILED");
        assertThat(fieldNames(taken.get("verification"))).isEqualTo(fieldNames(missing.get("verification")));
        assertThat(taken.get("verification").get("missingActions")).isEqualTo(missing.get("verification").get("missingActions"))
                .isEmpty();
        assertThat(taken.get("verification").get("message").asString()
                .replace(taken.get("roleArn").asString(), "<role>"))
                .isEqualTo(missing.get("verification").get("message").asString()
                        .replace(missing.get("roleArn").asString(), "<role>"));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    @Test
    void anAccountHostingInstancesCannotBeDeleted() {
        ApiClient api = api(EDITOR);
        String accountId = registerAccount(api).get("id").asString();
        JsonNode instance = createRunningInstance(api, instanceBody(accountId, "S3", 1, 3));

        ApiClient.Response refused = api.delete("/cloud-accounts/" + accountId);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("detail").asString()).contains("1 instance");

        String deleteOperation = api.delete("/instances/" + instance.get("id").asString()).json().get("id").asString();
        awaitOperation(api, deleteOperation, "SUCCEEDED");
        assertThat(api.delete("/cloud-accounts/" + accountId).status()).isEqualTo(204);
        assertThat(api.get("/cloud-accounts/" + accountId).status()).isEqualTo(404);
    }

    @Test
    void theOnboardingTemplateCarriesTheOrganizationsExternalIdAndOnlyManagedResources() {
        ApiClient api = api(VIEWER);
        ApiClient.Response response = api.get("/cloud-accounts/onboarding-template");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.header("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/yaml"));
        assertThat(response.header("Content-Disposition")).hasValueSatisfying(d -> assertThat(d).contains("attachment"));
        JsonNode template = new YAMLMapper().readTree(response.body());
        String externalId = api.get("/organizations/me").json().get("externalId").asString();
        assertThat(template.at("/Parameters/ExternalId/Default").asString()).isEqualTo(externalId);
        assertThat(template.at("/Parameters/ControlPlaneAccountId/Default").asString()).matches("[0-9]{12}");
        JsonNode trust = template.at("/Resources/ControlPlaneRole/Properties/AssumeRolePolicyDocument/Statement/0");
        assertThat(trust.at("/Condition/StringEquals").has("sts:ExternalId")).isTrue();
        JsonNode statements = template.at("/Resources/ControlPlaneRole/Properties/Policies/0/PolicyDocument/Statement");
        assertThat(statements).noneSatisfy(statement -> assertThat(statement.get("Action").toString()).contains("*\""));
        assertThat(api(OTHER_ORG_ADMIN).get("/cloud-accounts/onboarding-template").body()).doesNotContain(externalId);
    }
}

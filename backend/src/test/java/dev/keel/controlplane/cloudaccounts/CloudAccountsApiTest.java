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

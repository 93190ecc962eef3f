package dev.keel.controlplane.cloudaccounts;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.CustomerAccount;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.OnboardedAccount;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Registration verifies the role in LocalStack: the served template passes (see
 * {@link OnboardedAccount}); a role deployed from it with two permissions taken out fails naming
 * exactly those two; a role that does not exist fails saying so. A verified account lists its
 * networks through its role.
 */
class AwsAccountVerificationIT {

    @Test
    void aRoleIsVerifiedByAssumingItAndSimulatingEveryActionTheProvisionerCalls() throws Exception {
        try (BackendProcess backend = BackendProcess.start("verify-" + Fixtures.unique("w"), OnboardedAccount.awsEnvironment())) {
            ApiClient api = backend.api(Fixtures.EDITOR);
            CustomerAccount customer = new CustomerAccount();
            String template = api.get("/cloud-accounts/onboarding-template").body();
            String weakened = template.replace("                  - fsx:CreateFileSystem\n", "")
                    .replace("                  - s3:DeleteBucket\n", "");
            assertThat(weakened).isNotEqualTo(template);
            String weakRole = customer.onboard(weakened);

            JsonNode weak = register(api, weakRole);

            assertThat(weak.get("status").asString()).isEqualTo("VERIFICATION_FAILED");
            assertThat(weak.get("verification").get("missingActions")).extracting(JsonNode::asString)
                    .containsExactly("fsx:CreateFileSystem", "s3:DeleteBucket");
            assertThat(weak.get("verification").get("message").asString()).contains("fsx:CreateFileSystem", "s3:DeleteBucket");

            String missingRole = weakRole.replaceAll("role/.*", "role/" + Fixtures.unique("never-deployed"));
            JsonNode missing = register(api, missingRole);
            assertThat(missing.get("status").asString()).isEqualTo("VERIFICATION_FAILED");
            assertThat(missing.get("verification").get("message").asString()).contains(missingRole).contains("does not exist");

            JsonNode good = register(api, customer.onboard(template));
            assertThat(good.get("status").asString()).isEqualTo("VERIFIED");
            assertThat(good.get("verification").get("missingActions").isEmpty()).isTrue();
            assertThat(good.get("verification").get("message").isNull()).isTrue();

            // Through the verified role, the account's networks to choose from.
            JsonNode networks = api.get("/cloud-accounts/" + good.get("id").asString() + "/networks?region="
                    + CustomerAccount.REGION).json();
            JsonNode vpc = null;
            for (JsonNode candidate : networks.get("vpcs")) {
                if (candidate.get("vpcId").asString().equals(customer.vpcId)) {
                    vpc = candidate;
                }
            }
            assertThat(vpc).as("the customer's VPC in " + networks).isNotNull();
            assertThat(vpc.get("subnets")).extracting(s -> s.get("subnetId").asString())
                    .containsExactlyElementsOf(customer.subnets.stream().map(s -> s[1]).toList());
        }
    }

    private static JsonNode register(ApiClient api, String roleArn) {
        ApiClient.Response response = api.post("/cloud-accounts", Map.of("name", Fixtures.unique("acct"),
                "awsAccountId", roleArn.split(":")[4], "roleArn", roleArn, "regions", List.of(CustomerAccount.REGION)));
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }
}

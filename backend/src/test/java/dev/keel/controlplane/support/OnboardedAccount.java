package dev.keel.controlplane.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A LocalStack customer account onboarded the way a customer would: the served CloudFormation
 * template deployed, the role registered as a cloud account. Instance bodies land in its VPC.
 */
public final class OnboardedAccount {

    public final CustomerAccount customer = new CustomerAccount();
    public final String accountId;

    public OnboardedAccount(ApiClient api) {
        String roleArn = customer.onboard(api.get("/cloud-accounts/onboarding-template").body());
        ApiClient.Response registered = api.post("/cloud-accounts", Map.of("name", Fixtures.unique("localstack"),
                "awsAccountId", roleArn.split(":")[4], "roleArn", roleArn, "regions", List.of(CustomerAccount.REGION)));
        assertThat(registered.status()).as(registered.toString()).isEqualTo(201);
        assertThat(registered.json().get("status").asString()).as("the onboarding template passes verification: "
                + registered.json().get("verification")).isEqualTo("VERIFIED");
        accountId = registered.json().get("id").asString();
    }

    /**
     * The environment of a backend process provisioning into LocalStack and the FSx emulator, with
     * a database of its own: the drift reconciler must not meet the API tests' no-cloud instances.
     */
    public static Map<String, String> awsEnvironment() {
        Map<String, String> environment = new HashMap<>(WorkerEnvironment.withStepDelay(java.time.Duration.ZERO));
        environment.put("KEEL_DB_URL", Database.fresh());
        environment.put("KEEL_PROVISIONING_DRIVER", "aws");
        environment.put("KEEL_AWS_ENDPOINT", TestEnvironment.require("KEEL_AWS_ENDPOINT"));
        environment.put("KEEL_FSX_ENDPOINT", TestEnvironment.require("KEEL_FSX_ENDPOINT"));
        environment.put("KEEL_AWS_WAIT_SCALE", "0.02");
        return environment;
    }

    public Map<String, Object> instanceBody(String wal, int zones, int aku, Map<String, Object> fsx) {
        List<Map<String, String>> subnets = new ArrayList<>();
        for (int i = 0; i < zones; i++) {
            subnets.add(Map.of("availabilityZone", customer.subnets.get(i)[0], "subnetId", customer.subnets.get(i)[1]));
        }
        Map<String, Object> body = Fixtures.instanceBody(accountId, wal, zones, aku);
        body.put("network", Map.of("vpcId", customer.vpcId, "subnets", subnets));
        if (fsx != null) {
            body.put("fsx", fsx);
        }
        return body;
    }

    /** Waits for an operation to end and returns it. */
    public static JsonNode finished(ApiClient api, String operationId) {
        return api.await("/operations/" + operationId,
                op -> List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(op.get("state").asString()),
                java.time.Duration.ofMinutes(3));
    }
}

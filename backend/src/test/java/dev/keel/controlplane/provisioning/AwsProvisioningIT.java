package dev.keel.controlplane.provisioning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.CustomerAccount;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.OnboardedAccount;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole path against LocalStack standing in for a customer's account: onboard it with the
 * served CloudFormation template, register it, then for each WAL type create, scale and delete an
 * instance through the API, counting the cloud resources independently after each step.
 */
class AwsProvisioningIT {

    private static BackendProcess backend;
    private static ApiClient api;
    private static OnboardedAccount account;
    private static CustomerAccount customer;

    @BeforeAll
    static void onboardedAccount() {
        backend = BackendProcess.start("aws-" + Fixtures.unique("worker"), OnboardedAccount.awsEnvironment());
        api = backend.api(Fixtures.EDITOR);
        account = new OnboardedAccount(api);
        customer = account.customer;
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void ebsWalInOneZone() {
        lifecycle(account.instanceBody("EBS", 1, 3, null), 6, null);
    }

    @Test
    void s3WalInThreeZones() {
        lifecycle(account.instanceBody("S3", 3, 3, null), 6, null);
    }

    @Test
    void fsxWalInThreeZonesWithTwoFileSystems() {
        lifecycle(account.instanceBody("FSWAL", 3, 6, Map.of("throughputMBps", 384, "count", 2)), 9, 3);
    }

    private void lifecycle(Map<String, Object> body, int scaledAku, Integer fsxCountAfter) {
        JsonNode plan = api.post("/instances/plan", body).json();
        ApiClient.Response created = api.post("/instances", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("instanceId").asString();
        await(created.json().get("id").asString());
        JsonNode running = api.get("/instances/" + id).json();
        assertThat(running.get("state").asString()).isEqualTo("RUNNING");
        assertThat(customer.runningBrokers(id)).isEqualTo(running.get("sizing").get("brokerCount").asInt());
        assertThat(running.get("inventory").get("bootstrapServers").asString()).isNotBlank();
        assertThat(plan.get("summary").get("create").asInt()).as("the plan announced exactly what was created")
                .isEqualTo(running.get("inventory").get("resources").size() + running.get("inventory").get("brokers").size());
        assertThat(api.post("/instances/" + id + "/plan", null).json().get("changes")).as("nothing to repair").isEmpty();

        Map<String, Object> patch = new LinkedHashMap<>();
        patch.put("aku", scaledAku);
        if (fsxCountAfter != null) {
            assertThat(customer.fileSystems(id)).isEqualTo(2);
            patch.put("fsx", Map.of("count", fsxCountAfter));
        }
        ApiClient.Response scaled = api.header("If-Match", "\"1\"").patch("/instances/" + id, patch);
        assertThat(scaled.status()).as(scaled.toString()).isEqualTo(202);
        await(scaled.json().get("id").asString());
        JsonNode after = api.get("/instances/" + id).json();
        assertThat(customer.runningBrokers(id)).isEqualTo(after.get("sizing").get("brokerCount").asInt());
        if (fsxCountAfter != null) {
            assertThat(customer.fileSystems(id)).isEqualTo(fsxCountAfter.longValue());
        }

        int akuBefore = running.get("spec").get("aku").asInt();
        ApiClient.Response shrunk = api.header("If-Match", "\"2\"").patch("/instances/" + id, Map.of("aku", akuBefore));
        assertThat(shrunk.status()).as(shrunk.toString()).isEqualTo(202);
        await(shrunk.json().get("id").asString());
        assertThat(customer.runningBrokers(id)).as("scaled back down")
                .isEqualTo(running.get("sizing").get("brokerCount").asLong());

        ApiClient.Response deleted = api.delete("/instances/" + id);
        assertThat(deleted.status()).isEqualTo(202);
        await(deleted.json().get("id").asString());
        assertThat(api.get("/instances/" + id).json().get("state").asString()).isEqualTo("DELETED");
        assertThat(customer.leftovers(id)).as("resources left in the account").isEmpty();
    }

    private static void await(String operationId) {
        JsonNode operation = OnboardedAccount.finished(api, operationId);
        assertThat(operation.get("state").asString()).as(operation.toString()).isEqualTo("SUCCEEDED");
    }
}

package dev.keel.controlplane.support;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Test 1 of the provisioner: through the API, plan and create an instance, scale its AKU (and FSx
 * count) up and back down, delete it, counting its cloud resources independently at each step.
 */
public final class InstanceLifecycle {

    private InstanceLifecycle() {
    }

    public static void run(ApiClient api, OnboardedAccount account, Map<String, Object> body, int scaledAku,
                           Integer fsxCountAfter) {
        CustomerAccount customer = account.customer;
        JsonNode plan = api.post("/instances/plan", body).json();
        ApiClient.Response created = api.post("/instances", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("instanceId").asString();
        succeeded(api, created.json().get("id").asString());
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
        succeeded(api, scaled.json().get("id").asString());
        JsonNode after = api.get("/instances/" + id).json();
        assertThat(customer.runningBrokers(id)).isEqualTo(after.get("sizing").get("brokerCount").asInt());
        if (fsxCountAfter != null) {
            assertThat(customer.fileSystems(id)).isEqualTo(fsxCountAfter.longValue());
        }

        int akuBefore = running.get("spec").get("aku").asInt();
        ApiClient.Response shrunk = api.header("If-Match", "\"2\"").patch("/instances/" + id, Map.of("aku", akuBefore));
        assertThat(shrunk.status()).as(shrunk.toString()).isEqualTo(202);
        succeeded(api, shrunk.json().get("id").asString());
        assertThat(customer.runningBrokers(id)).as("scaled back down")
                .isEqualTo(running.get("sizing").get("brokerCount").asLong());

        ApiClient.Response deleted = api.delete("/instances/" + id);
        assertThat(deleted.status()).isEqualTo(202);
        succeeded(api, deleted.json().get("id").asString());
        JsonNode deletedInstance = api.get("/instances/" + id).json();
        assertThat(deletedInstance.get("state").asString()).isEqualTo("DELETED");
        assertThat(customer.leftoversBesideKeptData(id)).as("resources left in the account").isEmpty();
        assertThat(customer.dataRetainedUntil(id)).as("the data bucket is kept, tagged with when it goes")
                .isEqualTo(deletedInstance.get("dataRetainedUntil").asString());
    }


    private static void succeeded(ApiClient api, String operationId) {
        JsonNode operation = OnboardedAccount.finished(api, operationId);
        assertThat(operation.get("state").asString()).as(operation.toString()).isEqualTo("SUCCEEDED");
    }
}

package dev.keel.controlplane.operations;

import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.github.kagkarlsson.scheduler.Scheduler;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class OperationsApiTest extends ApiTest {

    @Autowired
    Scheduler scheduler;

    private ApiClient api;
    private String accountId;

    @BeforeEach
    void account() {
        api = api(EDITOR);
        accountId = registerAccount(api).get("id").asString();
    }

    @Test
    void aPermanentStepFailureFailsTheOperationAndTheInstanceSaysWhy() {
        Map<String, Object> body = instanceBody(accountId, "S3", 3, 3);
        body.put("name", unique("fail-at-launch-brokers"));

        String operationId = api.post("/instances", body).json().get("id").asString();

        JsonNode failed = awaitOperation(api, operationId, "FAILED");
        assertThat(failed.get("error").get("code").asString()).isEqualTo("NO_CLOUD_REQUESTED_FAILURE");
        assertThat(failed.get("steps")).anySatisfy(step -> {
            assertThat(step.get("name").asString()).isEqualTo("launch-brokers");
            assertThat(step.get("state").asString()).isEqualTo("FAILED");
        });
        assertThat(failed.get("steps").get(failed.get("steps").size() - 1).get("state").asString()).isEqualTo("SKIPPED");
        JsonNode instance = api.get("/instances/" + failed.get("instanceId").asString()).json();
        assertThat(instance.get("state").asString()).isEqualTo("FAILED");
        assertThat(instance.get("conditions")).anySatisfy(condition -> {
            assertThat(condition.get("type").asString()).isEqualTo("Ready");
            assertThat(condition.get("status").asString()).isEqualTo("False");
            assertThat(condition.get("reason").asString()).isEqualTo("NO_CLOUD_REQUESTED_FAILURE");
        });

        assertThat(new ApiClient("http://localhost:" + managementPort, null).get("/actuator/prometheus").body())
                .containsPattern("keel_operations_finished_total\\{[^}]*state=\"FAILED\",type=\"CREATE\"");

        ApiClient.Response cleanup = api.delete("/instances/" + failed.get("instanceId").asString());
        assertThat(cleanup.status()).as("a failed instance can be deleted").isEqualTo(202);
        awaitOperation(api, cleanup.json().get("id").asString(), "SUCCEEDED");
    }

    @Test
    void aPendingOperationCanBeCancelledAndAStartedOneCannot() {
        scheduler.pause();
        String operationId;
        try {
            operationId = api.post("/instances", instanceBody(accountId, "S3", 1, 3)).json().get("id").asString();
            ApiClient.Response cancelled = api.post("/operations/" + operationId + "/cancel", null);
            assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
            assertThat(cancelled.json().get("state").asString()).isEqualTo("CANCELLED");
            assertThat(cancelled.json().get("steps")).allSatisfy(s -> assertThat(s.get("state").asString()).isEqualTo("SKIPPED"));
            assertThat(api.post("/operations/" + operationId + "/cancel", null).status()).as("idempotent").isEqualTo(200);
        } finally {
            scheduler.resume();
        }
        JsonNode instance = api.get("/instances/" + api.get("/operations/" + operationId).json().get("instanceId").asString()).json();
        assertThat(instance.get("state").asString()).as("a cancelled create leaves nothing").isEqualTo("DELETED");

        JsonNode running = createRunningInstance(api, instanceBody(accountId, "S3", 1, 3));
        String createId = api.get("/instances/" + running.get("id").asString() + "/operations").json()
                .get("items").get(0).get("id").asString();
        ApiClient.Response tooLate = api.post("/operations/" + createId + "/cancel", null);
        assertThat(tooLate.status()).isEqualTo(409);
        assertThat(tooLate.json().get("detail").asString()).contains("SUCCEEDED");
    }

    @Test
    void onlyOneOperationRunsOnAnInstanceAtATime() {
        scheduler.pause();
        try {
            String instanceId = api.post("/instances", instanceBody(accountId, "S3", 1, 3)).json().get("instanceId").asString();
            ApiClient.Response second = api.delete("/instances/" + instanceId);
            assertThat(second.status()).isEqualTo(409);
            assertThat(second.json().get("type").asString()).endsWith("/operation-in-progress");
        } finally {
            scheduler.resume();
        }
    }

    @Test
    void operationsOfAnInstanceAreListedNewestFirst() {
        JsonNode instance = createRunningInstance(api, instanceBody(accountId, "S3", 3, 3));
        String id = instance.get("id").asString();
        ApiClient.Response scaled = api.header("If-Match", "\"1\"").patch("/instances/" + id, Map.of("aku", 6));
        awaitOperation(api, scaled.json().get("id").asString(), "SUCCEEDED");

        JsonNode page = api.get("/instances/" + id + "/operations").json();
        assertThat(page.get("items")).extracting(op -> op.get("type").asString()).containsExactly("UPDATE", "CREATE");
        assertThat(api.get("/instances/00000000-0000-0000-0000-000000000000/operations").status()).isEqualTo(404);
    }
}

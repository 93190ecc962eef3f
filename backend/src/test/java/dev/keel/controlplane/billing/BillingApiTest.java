package dev.keel.controlplane.billing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class BillingApiTest extends ApiTest {

    @Test
    void usageFollowsTheCapacityEachInstanceRanWith() {
        ApiClient api = api(EDITOR);
        JsonNode instance = createRunningInstance(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 3, 3));
        String id = instance.get("id").asString();

        JsonNode running = usageOf(api, id);
        assertThat(periods(running)).containsExactly("3 running");
        assertThat(running.get("akuHours").asDouble()).isGreaterThanOrEqualTo(0);

        ApiClient.Response scaled = api.header("If-Match", "\"1\"").patch("/instances/" + id, Map.of("aku", 6));
        assertThat(scaled.status()).as(scaled.toString()).isEqualTo(202);
        awaitOperation(api, scaled.json().get("id").asString(), "SUCCEEDED");
        assertThat(periods(usageOf(api, id))).as("the scale counts from when it is done").containsExactly("3", "6 running");

        awaitOperation(api, api.delete("/instances/" + id).json().get("id").asString(), "SUCCEEDED");
        JsonNode deleted = usageOf(api, id);
        assertThat(periods(deleted)).containsExactly("3", "6");
        double hours = deleted.get("akuHours").asDouble();
        assertThat(usageOf(api, id).get("akuHours").asDouble()).as("a deleted instance accrues nothing more").isEqualTo(hours);

        assertThat(api(OTHER_ORG_ADMIN).get("/billing/usage").json().get("instances").toString())
                .as("another organization's usage").doesNotContain(id);
    }

    @Test
    void aWindowThatIsEmptyOrTooLongIsAFieldError() {
        ApiClient api = api(VIEWER);
        ApiClient.Response backwards = api.get("/billing/usage?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z");
        assertThat(backwards.status()).isEqualTo(400);
        assertThat(backwards.json().get("errors").get(0).get("field").asString()).isEqualTo("from");
        ApiClient.Response tooLong = api.get("/billing/usage?from=2024-01-01T00:00:00Z&to=2026-11-01T00:00:00Z");
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.json().get("errors").get(0).get("message").asString()).contains("366 days");
    }

    /** The instance's usage over the last hour. */
    private static JsonNode usageOf(ApiClient api, String instanceId) {
        JsonNode usage = api.get("/billing/usage?from=" + java.time.Instant.now().minusSeconds(3600)).json();
        for (JsonNode instance : usage.get("instances")) {
            if (instance.get("instanceId").asString().equals(instanceId)) {
                return instance;
            }
        }
        throw new AssertionError("instance " + instanceId + " not in " + usage);
    }

    /** Each period as "aku" or "aku running". */
    private static List<String> periods(JsonNode instanceUsage) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : instanceUsage.get("periods")) {
            out.add(p.get("aku").asInt() + (p.get("running").asBoolean() ? " running" : ""));
        }
        return out;
    }
}

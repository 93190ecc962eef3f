package dev.keel.controlplane.billing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
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
    void aDeleteThatFailsAfterTheBrokersAreTerminatedStillEndsTheUsage() {
        ApiClient api = api(EDITOR);
        Map<String, Object> body = instanceBody(registerAccount(api).get("id").asString(), "S3", 3, 3);
        // The no-cloud driver fails the step after terminate-brokers for an instance named so.
        body.put("name", unique("fail-at-delete-security-group"));
        String id = createRunningInstance(api, body).get("id").asString();

        JsonNode failed = awaitOperation(api, api.delete("/instances/" + id).json().get("id").asString(), "FAILED");
        assertThat(failed.get("steps")).anySatisfy(step -> {
            assertThat(step.get("name").asString()).isEqualTo("terminate-brokers");
            assertThat(step.get("state").asString()).isEqualTo("SUCCEEDED");
        });

        JsonNode usage = usageOf(api, id);
        assertThat(periods(usage)).as("the period closed with the brokers").containsExactly("3");
        double hours = usage.get("akuHours").asDouble();
        assertThat(usageOf(api, id).get("akuHours").asDouble()).as("nothing accrues after").isEqualTo(hours);
    }

    @Test
    void akuHoursAreEachPeriodsCapacityTimesTheHoursItRanWithinTheWindow() {
        ApiClient api = api(EDITOR);
        String id = createRunningInstance(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 3, 3))
                .get("id").asString();
        // A known history, in a year no other instance ran: 3 AKU for 10 hours, 6 AKU for 14, then 9 AKU on.
        // Leftovers of an earlier run of this test in the same database would add to the organization's total.
        Database.update("DELETE FROM capacity_periods WHERE started_at < '2021-01-01'");
        Database.update("DELETE FROM capacity_periods WHERE instance_id = ?", UUID.fromString(id));
        Database.update("""
                INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at, ended_at)
                SELECT id, organization_id, p.aku, p.started_at::timestamptz, p.ended_at::timestamptz
                FROM instances, (VALUES (3, '2020-03-01T00:00:00Z', '2020-03-01T10:00:00Z'),
                                        (6, '2020-03-01T10:00:00Z', '2020-03-02T00:00:00Z'),
                                        (9, '2020-03-02T00:00:00Z', NULL)) AS p (aku, started_at, ended_at)
                WHERE id = ?
                """, UUID.fromString(id));

        JsonNode twoDays = api.get("/billing/usage?from=2020-03-01T00:00:00Z&to=2020-03-03T00:00:00Z").json();
        assertThat(twoDays.get("akuHours").asDouble()).as("3 × 10 + 6 × 14 + 9 × 24").isEqualTo(330.0);
        assertThat(twoDays.get("instances")).hasSize(1);
        assertThat(twoDays.get("instances").get(0).get("akuHours").asDouble()).isEqualTo(330.0);
        assertThat(periods(twoDays.get("instances").get(0))).as("still running: open until the window's end")
                .containsExactly("3", "6", "9 running");

        JsonNode clipped = api.get("/billing/usage?from=2020-03-01T05:00:00Z&to=2020-03-01T12:30:00Z").json();
        assertThat(clipped.get("akuHours").asDouble()).as("3 × 5 + 6 × 2.5").isEqualTo(30.0);
        JsonNode clippedPeriods = clipped.get("instances").get(0).get("periods");
        assertThat(clippedPeriods.get(0).get("from").asString()).isEqualTo("2020-03-01T05:00:00Z");
        assertThat(clippedPeriods.get(1).get("to").asString()).isEqualTo("2020-03-01T12:30:00Z");

        JsonNode oneMinute = api.get("/billing/usage?from=2020-03-01T00:20:00Z&to=2020-03-01T00:21:00Z").json();
        assertThat(oneMinute.get("akuHours").asDouble()).as("3 AKU for a minute, to the thousandth").isEqualTo(0.05);

        JsonNode before = api.get("/billing/usage?from=2020-02-01T00:00:00Z&to=2020-03-01T00:00:00Z").json();
        assertThat(before.get("akuHours").asDouble()).as("nothing ran before the history").isZero();
        assertThat(before.get("instances")).isEmpty();
        Database.update("DELETE FROM capacity_periods WHERE instance_id = ?", UUID.fromString(id));
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

package dev.keel.controlplane.audit;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class AuditApiTest extends ApiTest {

    @Test
    void everyChangeIsRecordedWithWhoWhatBeforeAfterAndRequestId() {
        ApiClient api = api(EDITOR).header("X-Request-Id", "audit-test-" + unique("req"));
        String accountId = registerAccount(api).get("id").asString();
        JsonNode instance = createRunningInstance(api, instanceBody(accountId, "S3", 1, 3));
        String id = instance.get("id").asString();
        api.header("If-Match", "\"1\"").patch("/instances/" + id, java.util.Map.of("aku", 6));

        JsonNode events = api.get("/audit-events?resourceType=instance&resourceId=" + id).json().get("items");

        assertThat(events).extracting(e -> e.get("action").asString()).containsExactly("instance.update", "instance.create");
        JsonNode update = events.get(0);
        assertThat(update.get("actor").get("username").asString()).isEqualTo(EDITOR);
        assertThat(update.get("requestId").asString()).startsWith("audit-test-");
        assertThat(update.get("before").get("spec").get("aku").asInt()).isEqualTo(3);
        assertThat(update.get("after").get("spec").get("aku").asInt()).isEqualTo(6);
        JsonNode create = events.get(1);
        assertThat(create.get("before").isNull()).isTrue();
        assertThat(create.get("after").get("name").asString()).isEqualTo(instance.get("name").asString());

        JsonNode accountEvents = api.get("/audit-events?resourceType=cloud-account&resourceId=" + accountId).json().get("items");
        assertThat(accountEvents).extracting(e -> e.get("action").asString())
                .containsExactly("cloud-account.verify", "cloud-account.register");
        assertThat(accountEvents.get(0).get("before").get("status").asString()).isEqualTo("PENDING_VERIFICATION");
        assertThat(accountEvents.get(0).get("after").get("status").asString()).isEqualTo("VERIFIED");
    }

    @Test
    void theAuditLogIsPaginatedAndPrivateToTheOrganization() {
        ApiClient api = api(EDITOR);
        registerAccount(api);
        registerAccount(api);
        JsonNode page = api.get("/audit-events?limit=1").json();
        assertThat(page.get("items").size()).isEqualTo(1);
        JsonNode next = api.get("/audit-events?limit=1&cursor=" + page.get("nextCursor").asString()).json();
        assertThat(next.get("items").get(0).get("id")).isNotEqualTo(page.get("items").get(0).get("id"));

        JsonNode theirs = api(OTHER_ORG_ADMIN).get("/audit-events?limit=100").json().get("items");
        assertThat(theirs).noneSatisfy(e -> assertThat(e.get("actor").get("username").asString()).isEqualTo(EDITOR));
    }
}

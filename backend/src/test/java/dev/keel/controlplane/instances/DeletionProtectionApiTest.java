package dev.keel.controlplane.instances;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Deletion protection refuses deletes until it is turned off (audited); a delete keeps the data bucket for the
 * retention period, recorded on the instance until the retention purge deletes it; only admins purge at once.
 */
class DeletionProtectionApiTest extends ApiTest {

    @Autowired
    private RetainedDataPurge purge;

    private ApiClient editor;
    private String accountId;

    @BeforeEach
    void account() {
        editor = api(EDITOR);
        accountId = registerAccount(editor).get("id").asString();
    }

    @Test
    void aProtectedInstanceIsNotDeletedUntilProtectionIsTurnedOffWhichIsAudited() {
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        body.put("deletionProtection", true);
        JsonNode instance = createRunningInstance(editor, body);
        String path = "/instances/" + instance.get("id").asString();
        assertThat(instance.get("deletionProtection").asBoolean()).isTrue();

        ApiClient.Response refused = editor.delete(path);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("type").asString()).endsWith("/deletion-protected");
        assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("deletionProtection");
        assertThat(refused.json().get("errors").get(0).get("message").asString()).contains("turn it off first");
        assertThat(editor.get(path).json().get("state").asString()).isEqualTo("RUNNING");

        ApiClient.Response withoutEtag = editor.patch(path, Map.of("deletionProtection", false));
        assertThat(withoutEtag.status()).isEqualTo(428);
        ApiClient.Response off = editor.header("If-Match", "\"1\"").patch(path, Map.of("deletionProtection", false));
        assertThat(off.status()).as(off.toString()).isEqualTo(200);
        assertThat(off.json().get("deletionProtection").asBoolean()).isFalse();
        assertThat(off.header("ETag")).as("not a spec change").contains("\"1\"");
        ApiClient.Response again = editor.header("If-Match", "\"1\"").patch(path, Map.of("deletionProtection", false));
        assertThat(again.status()).as("changes nothing").isEqualTo(400);

        JsonNode audited = editor.get("/audit-events?resourceType=instance&resourceId=" + instance.get("id").asString())
                .json().get("items").get(0);
        assertThat(audited.get("action").asString()).isEqualTo("instance.unprotect");
        assertThat(audited.get("actor").get("username").asString()).isEqualTo(EDITOR);
        assertThat(audited.get("before").get("deletionProtection").asBoolean()).isTrue();
        assertThat(audited.get("after").get("deletionProtection").asBoolean()).isFalse();

        ApiClient.Response deleting = editor.delete(path);
        assertThat(deleting.status()).as(deleting.toString()).isEqualTo(202);
        awaitOperation(editor, deleting.json().get("id").asString(), "SUCCEEDED");
    }

    @Test
    void protectionIsOffUnlessAskedForAndCanBeTurnedOnWithACapacityChange() {
        JsonNode instance = createRunningInstance(editor, instanceBody(accountId, "S3", 1, 3));
        String path = "/instances/" + instance.get("id").asString();
        assertThat(instance.get("deletionProtection").asBoolean()).isFalse();

        ApiClient.Response scaled = editor.header("If-Match", "\"1\"")
                .patch(path, Map.of("aku", 6, "deletionProtection", true));
        assertThat(scaled.status()).as(scaled.toString()).isEqualTo(202);
        awaitOperation(editor, scaled.json().get("id").asString(), "SUCCEEDED");
        JsonNode after = editor.get(path).json();
        assertThat(after.get("spec").get("aku").asInt()).isEqualTo(6);
        assertThat(after.get("deletionProtection").asBoolean()).isTrue();
        assertThat(editor.get("/audit-events?resourceType=instance&resourceId=" + instance.get("id").asString())
                .json().get("items").valueStream().map(e -> e.get("action").asString()))
                .contains("instance.protect", "instance.update");
        assertThat(editor.delete(path).status()).isEqualTo(409);
    }

    @Test
    void aDeleteKeepsTheDataBucketUntilRetentionEndsThenThePurgeDeletesIt() {
        JsonNode instance = createRunningInstance(editor, instanceBody(accountId, "S3", 1, 3));
        String id = instance.get("id").asString();
        String path = "/instances/" + id;

        JsonNode plan = editor.post(path + "/plan?delete=true", null).json();
        assertThat(plan.get("kind").asString()).isEqualTo("DELETE");
        Instant planned = Instant.parse(plan.get("dataRetainedUntil").asString());
        assertThat(planned).isCloseTo(Instant.now().plus(Duration.ofDays(7)), within(Duration.ofMinutes(1)));
        assertThat(editor.post(path + "/plan?delete=true&purge=true", null).json().get("dataRetainedUntil").isNull())
                .isTrue();
        assertThat(editor.post(path + "/plan?delete=maybe", null).status()).isEqualTo(400);

        awaitOperation(editor, editor.delete(path).json().get("id").asString(), "SUCCEEDED");
        JsonNode deleted = editor.get(path).json();
        assertThat(deleted.get("state").asString()).isEqualTo("DELETED");
        Instant retainedUntil = Instant.parse(deleted.get("dataRetainedUntil").asString());
        assertThat(retainedUntil).isCloseTo(Instant.now().plus(Duration.ofDays(7)), within(Duration.ofMinutes(1)));
        assertThat(deleted.get("inventory").get("resources")).singleElement()
                .satisfies(kept -> assertThat(kept.get("id").asString()).endsWith("-data"));

        assertThat(editor.delete("/cloud-accounts/" + accountId).status()).as("kept data does not hold the account")
                .isEqualTo(204);

        purge.purgeEndedBy(retainedUntil.minusSeconds(1));
        assertThat(editor.get(path).json().get("dataRetainedUntil").asString()).as("not yet")
                .isEqualTo(deleted.get("dataRetainedUntil").asString());

        purge.purgeEndedBy(retainedUntil);
        JsonNode purged = editor.get(path).json();
        assertThat(purged.get("dataRetainedUntil").isNull()).isTrue();
        assertThat(purged.get("inventory").get("resources").isEmpty()).isTrue();
        JsonNode audited = editor.get("/audit-events?resourceType=instance&resourceId=" + id).json().get("items").get(0);
        assertThat(audited.get("action").asString()).isEqualTo("instance.delete-data");
        assertThat(audited.get("actor").get("username").asString()).as("through the deleted account's role")
                .isEqualTo(RetainedDataPurge.PURGER);
    }

    @Test
    void onlyAdminsPurgeDataAtOnce() {
        JsonNode instance = createRunningInstance(editor, instanceBody(accountId, "S3", 1, 3));
        String path = "/instances/" + instance.get("id").asString();

        ApiClient.Response refused = editor.delete(path + "?purge=true");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.json().get("errors").get(0).get("field").asString()).isEqualTo("purge");
        assertThat(editor.get(path).json().get("state").asString()).isEqualTo("RUNNING");
        assertThat(editor.delete(path + "?purge=yes").status()).isEqualTo(400);

        ApiClient admin = api(ADMIN);
        ApiClient.Response purging = admin.delete(path + "?purge=true");
        assertThat(purging.status()).as(purging.toString()).isEqualTo(202);
        awaitOperation(admin, purging.json().get("id").asString(), "SUCCEEDED");
        JsonNode deleted = admin.get(path).json();
        assertThat(deleted.get("dataRetainedUntil").isNull()).isTrue();
        assertThat(deleted.get("inventory").get("resources").isEmpty()).isTrue();
        assertThat(admin.get("/audit-events?resourceType=instance&resourceId=" + instance.get("id").asString())
                .json().get("items").get(0).get("action").asString()).isEqualTo("instance.purge");
    }
}

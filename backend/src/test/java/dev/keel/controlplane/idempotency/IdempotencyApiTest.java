package dev.keel.controlplane.idempotency;

import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;

import static org.assertj.core.api.Assertions.assertThat;

class IdempotencyApiTest extends ApiTest {

    @Test
    void aReplayReturnsTheFirstResponseAndCreatesNothingMore() {
        ApiClient api = api(EDITOR);
        String accountId = registerAccount(api).get("id").asString();
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        ApiClient keyed = api.header("Idempotency-Key", UUID.randomUUID().toString());

        ApiClient.Response first = keyed.post("/instances", body);
        ApiClient.Response replay = keyed.post("/instances", body);

        assertThat(first.status()).isEqualTo(202);
        assertThat(replay.status()).isEqualTo(202);
        assertThat(replay.header("Idempotency-Replayed")).contains("true");
        assertThat(replay.header("Location")).isEqualTo(first.header("Location"));
        assertThat(replay.json()).isEqualTo(first.json());
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items").size()).isEqualTo(1);
    }

    @Test
    void theSameKeyWithADifferentBodyIsRefused() {
        ApiClient api = api(EDITOR);
        String accountId = registerAccount(api).get("id").asString();
        ApiClient keyed = api.header("Idempotency-Key", UUID.randomUUID().toString());
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        assertThat(keyed.post("/instances", body).status()).isEqualTo(202);

        body.put("aku", 6);
        ApiClient.Response reused = keyed.post("/instances", body);

        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.json().get("type").asString()).endsWith("/idempotency-key-reused");
        assertThat(reused.json().get("errors").get(0).get("field").asString()).isEqualTo("Idempotency-Key");
    }

    @Test
    void refusalsAreReplayedTooSoARetryCannotSucceedBehindTheCallersBack() {
        ApiClient keyed = api(EDITOR).header("Idempotency-Key", UUID.randomUUID().toString());
        Map<String, Object> body = Map.of("name", "x");
        ApiClient.Response first = keyed.post("/cloud-accounts", body);
        ApiClient.Response replay = keyed.post("/cloud-accounts", body);
        assertThat(first.status()).isEqualTo(400);
        assertThat(replay.status()).isEqualTo(400);
        assertThat(replay.header("Content-Type")).contains("application/problem+json");
        assertThat(replay.header("Idempotency-Replayed")).contains("true");
    }

    @Test
    void keysAreScopedToTheOrganization() {
        String key = UUID.randomUUID().toString();
        Map<String, Object> body = Map.of("region", "us-east-1", "zones", 1, "wal", Map.of("type", "S3"), "aku", 3);
        assertThat(api(EDITOR).header("Idempotency-Key", key).post("/estimates", body).status()).isEqualTo(200);
        ApiClient.Response other = api(OTHER_ORG_ADMIN).header("Idempotency-Key", key).post("/estimates", body);
        assertThat(other.status()).isEqualTo(200);
        assertThat(other.header("Idempotency-Replayed")).isEmpty();
    }
}

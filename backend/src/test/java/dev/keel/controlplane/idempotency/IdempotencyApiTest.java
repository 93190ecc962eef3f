package dev.keel.controlplane.idempotency;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Tokens;

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

    @Test
    void keysBelongToTheCallingUserWithinTheOrganization() {
        String key = UUID.randomUUID().toString();
        Map<String, Object> body = Map.of("region", "us-east-1", "zones", 1, "wal", Map.of("type", "S3"), "aku", 3);
        ApiClient.Response first = api(EDITOR).header("Idempotency-Key", key).post("/estimates", body);
        assertThat(first.status()).isEqualTo(200);
        assertThat(api(EDITOR).header("Idempotency-Key", key).post("/estimates", body).header("Idempotency-Replayed"))
                .as("the same caller gets the replay").contains("true");

        ApiClient.Response otherMember = api(ADMIN).header("Idempotency-Key", key).post("/estimates", body);
        ApiClient.Response serviceAccount = anonymous().withToken(Tokens.automation()).header("Idempotency-Key", key)
                .post("/estimates", body);

        assertThat(otherMember.status()).isEqualTo(200);
        assertThat(otherMember.header("Idempotency-Replayed")).as("another member of acme").isEmpty();
        assertThat(serviceAccount.status()).isEqualTo(200);
        assertThat(serviceAccount.header("Idempotency-Replayed")).as("acme's service account").isEmpty();
    }

    @Test
    void concurrentRequestsWithOneKeyHaveOneEffectAndOneStoredResponse() throws Exception {
        ApiClient api = api(EDITOR);
        String accountId = registerAccount(api).get("id").asString();
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        ApiClient keyed = api.header("Idempotency-Key", UUID.randomUUID().toString());
        int callers = 8;
        CyclicBarrier start = new CyclicBarrier(callers);
        List<ApiClient.Response> responses;
        try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
            List<Future<ApiClient.Response>> sent = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                sent.add(pool.submit(() -> {
                    start.await();
                    return keyed.post("/instances", body);
                }));
            }
            responses = new ArrayList<>();
            for (Future<ApiClient.Response> response : sent) {
                responses.add(response.get());
            }
        }

        List<ApiClient.Response> processed = responses.stream()
                .filter(r -> r.status() == 202 && r.header("Idempotency-Replayed").isEmpty()).toList();
        assertThat(processed).as("exactly one request was processed: " + responses).hasSize(1);
        assertThat(responses).allSatisfy(r -> {
            if (r.status() == 202) {
                assertThat(r.json()).as("a replay is the stored first response").isEqualTo(processed.getFirst().json());
            } else {
                assertThat(r.status()).isEqualTo(409);
                assertThat(r.json().get("type").asString()).endsWith("/idempotency-request-in-progress");
            }
        });
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items").size()).isEqualTo(1);
        ApiClient.Response replay = keyed.post("/instances", body);
        assertThat(replay.header("Idempotency-Replayed")).contains("true");
        assertThat(replay.json()).isEqualTo(processed.getFirst().json());
    }
}

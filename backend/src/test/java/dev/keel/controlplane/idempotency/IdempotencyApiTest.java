package dev.keel.controlplane.idempotency;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.controlplane.support.Tokens;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IdempotencyApiTest extends ApiTest {

    /** Longer ago than keel.idempotency.stale-after (5 minutes): no request takes that long. */
    private static final String LONG_AGO = "now() - interval '6 minutes'";

    @Autowired
    IdempotencyRecords records;

    @Autowired
    JdbcClient jdbc;

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

    /**
     * What a process killed after its change committed, before it stored its response, leaves: the claim, unanswered,
     * holding the answer the change's transaction wrote, and no hold on it (the process's session ended). A retry gets
     * at once the answer the first request would have given, and the instance is not created twice.
     */
    @Test
    void aKeyWhoseRequestDiedAfterItsChangeIsAnsweredFromTheChangeAtOnce() {
        ApiClient api = api(EDITOR);
        Map<String, Object> body = instanceBody(registerAccount(api).get("id").asString(), "S3", 1, 3);
        String key = UUID.randomUUID().toString();
        ApiClient keyed = api.header("Idempotency-Key", key);
        ApiClient.Response first = keyed.post("/instances", body);
        assertThat(first.status()).isEqualTo(202);
        assertThat(first.json().get("adminCredentials").get("password").asString()).isNotEmpty();
        Database.update("""
                UPDATE idempotency_records SET response_status = NULL, response_headers = NULL, response_body = NULL
                WHERE idempotency_key = ?
                """, key);

        ApiClient.Response retry = keyed.post("/instances", body);

        assertThat(retry.status()).isEqualTo(202);
        assertThat(retry.header("Idempotency-Replayed")).contains("true");
        assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
        assertThat(retry.header("Content-Location")).isEqualTo(first.header("Content-Location"));
        assertThat(retry.header("Content-Type")).isEqualTo(first.header("Content-Type"));
        assertThat(retry.json()).as("the operation and the admin's credentials, as first answered")
                .isEqualTo(first.json());
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items").size()).isEqualTo(1);
        assertThat(keyed.post("/instances", body).json()).as("the key now answers so").isEqualTo(first.json());
    }

    /**
     * What a process killed before its change committed leaves: the claim, unanswered, holding no change, and no hold
     * on it. A retry is processed at once as if it were the first.
     */
    @Test
    void aKeyWhoseRequestDiedBeforeItsChangeIsProcessedAfreshAtOnce() {
        ApiClient api = api(EDITOR);
        String payload = JsonMapper.shared().writeValueAsString(
                instanceBody(registerAccount(api).get("id").asString(), "S3", 1, 3));
        String key = UUID.randomUUID().toString();
        ApiClient keyed = api.header("Idempotency-Key", key);
        claimLeftBy(EDITOR, key, "/api/v1/instances", payload, UUID.randomUUID());

        ApiClient.Response retry = keyed.post("/instances", payload);

        assertThat(retry.status()).isEqualTo(202);
        assertThat(retry.header("Idempotency-Replayed")).isEmpty();
        String name = JsonMapper.shared().readTree(payload).get("name").asString();
        assertThat(api.get("/instances?name=" + name).json().get("items").size()).isEqualTo(1);
        ApiClient.Response replay = keyed.post("/instances", payload);
        assertThat(replay.header("Idempotency-Replayed")).contains("true");
        assertThat(replay.json()).isEqualTo(retry.json());
    }

    /**
     * A claim its process still holds belongs to a request that may be at work: a retry is told the key is in
     * progress. Once the claim is stale, its process is taken to be cut off from the database (or stopped) for good,
     * and the retry takes it over.
     */
    @Test
    void aKeyHeldByALiveProcessIsInProgressUntilItsClaimIsStale() throws Exception {
        ApiClient api = api(EDITOR);
        String payload = JsonMapper.shared().writeValueAsString(
                instanceBody(registerAccount(api).get("id").asString(), "S3", 1, 3));
        String key = UUID.randomUUID().toString();
        ApiClient keyed = api.header("Idempotency-Key", key);
        UUID holder = UUID.randomUUID();
        String lock = "SELECT pg_advisory_lock(" + ProcessHolds.lockOf("?") + ")";
        try (Connection process = Database.dataSource(TestEnvironment.databaseUrl()).getConnection();
             PreparedStatement hold = process.prepareStatement(lock)) {
            hold.setString(1, holder.toString());
            hold.execute();
            claimLeftBy(EDITOR, key, "/api/v1/instances", payload, holder);

            ApiClient.Response held = keyed.post("/instances", payload);
            assertThat(held.status()).isEqualTo(409);
            assertThat(held.json().get("type").asString()).endsWith("/idempotency-request-in-progress");

            Database.update("UPDATE idempotency_records SET claimed_at = " + LONG_AGO + " WHERE idempotency_key = ?",
                    key);
            ApiClient.Response retry = keyed.post("/instances", payload);
            assertThat(retry.status()).isEqualTo(202);
            assertThat(retry.header("Idempotency-Replayed")).isEmpty();
        }
    }

    /**
     * A request slower than the stale age loses its key to a retry; the change it then tries to commit is refused
     * with it, and its answer is not stored over the retry's: the key's change is made once.
     */
    @Test
    void aRequestWhoseKeyWasTakenOverCannotCommitItsChange() {
        String key = UUID.randomUUID().toString();
        IdempotencyRecords.Owner owner = ownerOf(EDITOR);
        var slow = (IdempotencyRecords.Claim.Held) records.claim(owner, key, "POST", "/api/v1/cloud-accounts", "f");
        Database.update("UPDATE idempotency_records SET claimed_at = " + LONG_AGO + " WHERE idempotency_key = ?", key);
        var retry = (IdempotencyRecords.Claim.Held) records.claim(owner, key, "POST", "/api/v1/cloud-accounts", "f");
        assertThat(retry.holder()).isNotEqualTo(slow.holder());

        IdempotencyRecords.Response answer = new IdempotencyRecords.Response(201, Map.of(),
                "{}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> records.recordEffect(owner, key, slow.holder(), answer))
                .isInstanceOfSatisfying(ApiException.class,
                        e -> assertThat(e.type()).isEqualTo(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS));
        records.complete(owner, key, slow.holder(), answer);
        assertThat(records.claim(owner, key, "POST", "/api/v1/cloud-accounts", "f"))
                .as("still the retry's, unanswered").isInstanceOfSatisfying(IdempotencyRecords.Claim.Taken.class,
                        taken -> assertThat(taken.stored().status()).isNull());
        records.release(owner, key, retry.holder());
    }

    /** The claim a request of {@code holder} left for {@code key}, just now: as {@code claim} makes it. */
    private void claimLeftBy(String username, String key, String path, String payload, UUID holder) {
        IdempotencyRecords.Owner owner = ownerOf(username);
        String fingerprint = IdempotencyFilter.fingerprint(new MockHttpServletRequest("POST", path),
                payload.getBytes(StandardCharsets.UTF_8));
        Database.update("""
                INSERT INTO idempotency_records (organization_id, caller_subject, idempotency_key, request_method,
                                                 request_path, request_hash, holder, claimed_at)
                VALUES (?, ?, ?, 'POST', ?, ?, ?, now())
                """, owner.organizationId(), owner.subject(), key, path, fingerprint, holder);
    }

    /** Whose keys {@code username}'s are, as the first keyed request of a test records them. */
    private IdempotencyRecords.Owner ownerOf(String username) {
        String key = UUID.randomUUID().toString();
        Map<String, Object> body = Map.of("region", "us-east-1", "zones", 1, "wal", Map.of("type", "S3"), "aku", 3);
        assertThat(api(username).header("Idempotency-Key", key).post("/estimates", body).status()).isEqualTo(200);
        return jdbc.sql("SELECT organization_id, caller_subject FROM idempotency_records WHERE idempotency_key = ?")
                .param(key).query((rs, n) -> new IdempotencyRecords.Owner(rs.getObject(1, UUID.class), rs.getString(2)))
                .single();
    }
}

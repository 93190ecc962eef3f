package dev.keel.controlplane.idempotency;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.servlet.HandlerMapping;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

import dev.keel.controlplane.secrets.SecretBox;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.ProblemWriter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stored first responses per (organization, caller, key), kept for {@code keel.idempotency.retention}. Bodies are
 * stored sealed: a first response may carry a secret shown once (a Kafka user's password), and its replay must too.
 * <p>
 * A claim names the request holding it ({@code holder}), and every write of that request is fenced on it. A claim
 * still unanswered belongs to a request that died with its process when that process no longer holds it
 * ({@link ProcessHolds}), or when it was taken {@code keel.idempotency.stale-after} ago (no request takes that long:
 * its process is cut off from the database, or stopped): the next request with the key takes it over. If the dead
 * request committed its change, its claim holds the answer that change gives, written in the change's own transaction
 * ({@link ChangeAnswers}): the retry is answered with it. Otherwise nothing was changed and the retry is processed
 * afresh. A request that was only slow finds its claim taken over and its change refused, so a key's change is made
 * once either way.
 */
@Configuration
class IdempotencyRecords {

    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
    };
    /** How often claiming looks again at a key another request changed meanwhile, before calling it in progress. */
    private static final int LOOKS = 3;

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final SecretBox secrets;
    private final ProcessHolds holds;
    private final Duration staleAfter;

    IdempotencyRecords(JdbcClient jdbc, JsonMapper json, SecretBox secrets, ProcessHolds holds,
                       @Value("${keel.idempotency.stale-after}") Duration staleAfter) {
        this.jdbc = jdbc;
        this.json = json;
        this.secrets = secrets;
        this.holds = holds;
        this.staleAfter = staleAfter;
    }

    /** Whose keys these are: one caller (the token's subject) in one organization. */
    record Owner(UUID organizationId, String subject) {
    }

    /** What a key holds: a response to replay, or none ({@code status} null) while its request is being processed. */
    record StoredResponse(String fingerprint, Integer status, Map<String, String> headers, byte[] body) {
    }

    /** A response to store under a key. */
    record Response(int status, Map<String, String> headers, byte[] body) {
    }

    /** What claiming a key came to: this request holds it now, or the key already holds {@code stored}. */
    sealed interface Claim {

        record Held(UUID holder) implements Claim {
        }

        record Taken(StoredResponse stored) implements Claim {
        }
    }

    @Bean
    FilterRegistrationBean<IdempotencyFilter> idempotencyFilter(ProblemWriter problems, ChangeAnswers answers,
            @Qualifier("requestMappingHandlerMapping") ObjectProvider<HandlerMapping> operations) {
        return new FilterRegistrationBean<>(new IdempotencyFilter(this, answers, problems, operations));
    }

    @Bean
    RecurringTask<Void> purgeIdempotencyRecords(@Value("${keel.idempotency.retention:24h}") Duration retention) {
        return Tasks.recurring("purge-idempotency-records", FixedDelay.ofMinutes(15))
                .execute((instance, context) -> jdbc.sql("DELETE FROM idempotency_records WHERE created_at < ?")
                        .param(java.sql.Timestamp.from(java.time.Instant.now().minus(retention)))
                        .update());
    }

    /**
     * Claims the key for this request; or takes over a claim its request abandoned, replaying the answer of its change
     * when it made one; or finds what the key holds.
     */
    Claim claim(Owner owner, String key, String method, String path, String fingerprint) {
        UUID holder = UUID.randomUUID();
        holds.hold(holder);
        Claim claim = null;
        try {
            claim = claim(owner, key, method, path, fingerprint, holder);
            return claim;
        } finally {
            if (!(claim instanceof Claim.Held)) {
                holds.letGo(holder);
            }
        }
    }

    private Claim claim(Owner owner, String key, String method, String path, String fingerprint, UUID holder) {
        for (int look = 0; look < LOOKS; look++) {
            int inserted = jdbc.sql("""
                    INSERT INTO idempotency_records (organization_id, caller_subject, idempotency_key, request_method,
                                                     request_path, request_hash, holder)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """).params(owner.organizationId(), owner.subject(), key, method, path, fingerprint, holder)
                    .update();
            if (inserted == 1) {
                return new Claim.Held(holder);
            }
            // Its holder's lock is free once its process has ended; tried here in the statement's own transaction, it is
            // given back as the statement ends.
            Optional<Found> found = jdbc.sql("""
                    SELECT request_hash, response_status, response_headers, response_body, response_sealed, holder,
                           claimed_at < now() - ? * interval '1 millisecond'
                               OR pg_try_advisory_xact_lock(%s) AS abandoned
                    FROM idempotency_records
                    WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ?
                    """.formatted(ProcessHolds.lockOf("holder::text")))
                    .params(staleAfter.toMillis(), owner.organizationId(), owner.subject(), key)
                    .query((rs, n) -> new Found(stored(rs, owner, key), rs.getObject("holder", UUID.class),
                            rs.getBoolean("abandoned")))
                    .optional();
            if (found.isEmpty()) {
                // Released meanwhile by a request that failed: the key is free again.
                continue;
            }
            StoredResponse stored = found.get().stored();
            if (!stored.fingerprint().equals(fingerprint) || stored.status() != null || !found.get().abandoned()) {
                return new Claim.Taken(stored);
            }
            Optional<StoredResponse> takenOver = jdbc.sql("""
                    UPDATE idempotency_records
                    SET holder = ?, claimed_at = now(), response_status = effect_status,
                        response_headers = effect_headers, response_body = effect_body, response_sealed = true
                    WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ? AND holder = ?
                      AND response_status IS NULL
                    RETURNING request_hash, response_status, response_headers, response_body, response_sealed
                    """).params(holder, owner.organizationId(), owner.subject(), key, found.get().holder())
                    .query((rs, n) -> stored(rs, owner, key))
                    .optional();
            if (takenOver.isPresent()) {
                return takenOver.get().status() == null ? new Claim.Held(holder) : new Claim.Taken(takenOver.get());
            }
            // Its holder finished, or another retry took it over, since it was read: look again.
        }
        return new Claim.Taken(new StoredResponse(fingerprint, null, Map.of(), null));
    }

    /**
     * A key's record as claiming reads it: what it holds, who holds it, and whether that one is gone (its process has
     * ended, or it has held the key too long).
     */
    private record Found(StoredResponse stored, UUID holder, boolean abandoned) {
    }

    private StoredResponse stored(ResultSet rs, Owner owner, String key) throws SQLException {
        String headers = rs.getString("response_headers");
        return new StoredResponse(rs.getString("request_hash"), (Integer) rs.getObject("response_status"),
                headers == null ? Map.of() : json.readValue(headers, HEADERS),
                body(rs.getBytes("response_body"), rs.getBoolean("response_sealed"), owner, key));
    }

    private byte[] body(byte[] stored, boolean sealed, Owner owner, String key) {
        return stored == null || !sealed ? stored : secrets.open(stored, context(owner, key));
    }

    private static String context(Owner owner, String key) {
        return "idempotency:" + owner.organizationId() + ":" + owner.subject() + ":" + key;
    }

    /**
     * Keeps the answer of the change {@code holder} is committing, in the change's transaction. Refused when the claim
     * is no longer its own (a retry took it over): the change must not be made a second time.
     */
    void recordEffect(Owner owner, String key, UUID holder, Response answer) {
        int kept = jdbc.sql("""
                UPDATE idempotency_records SET effect_status = ?, effect_headers = ?::jsonb, effect_body = ?
                WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ? AND holder = ?
                """).params(answer.status(), json.writeValueAsString(answer.headers()),
                        secrets.seal(answer.body(), context(owner, key)), owner.organizationId(), owner.subject(), key,
                        holder)
                .update();
        if (kept == 0) {
            throw ApiException.of(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS, "This request with key " + key
                    + " took longer than " + staleAfter.toSeconds() + " s, and a retry with that key has taken it "
                    + "over: nothing was changed here; see the retry's answer.");
        }
    }

    /** Stores the response of {@code holder}'s request, unless a retry took its claim over; its hold ends. */
    void complete(Owner owner, String key, UUID holder, Response response) {
        try {
            jdbc.sql("""
                    UPDATE idempotency_records
                    SET response_status = ?, response_headers = ?::jsonb, response_body = ?, response_sealed = true
                    WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ? AND holder = ?
                    """).params(response.status(), json.writeValueAsString(response.headers()),
                            secrets.seal(response.body(), context(owner, key)), owner.organizationId(),
                            owner.subject(), key, holder)
                    .update();
        } finally {
            holds.letGo(holder);
        }
    }

    /**
     * Frees the key of a request that ended in a server error, to be processed afresh; unless its change was committed
     * before the error, which the key then answers with. Its hold ends.
     */
    void release(Owner owner, String key, UUID holder) {
        try {
            jdbc.sql("""
                    DELETE FROM idempotency_records
                    WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ? AND holder = ?
                      AND response_status IS NULL AND effect_status IS NULL
                    """).params(owner.organizationId(), owner.subject(), key, holder).update();
            jdbc.sql("""
                    UPDATE idempotency_records
                    SET response_status = effect_status, response_headers = effect_headers, response_body = effect_body,
                        response_sealed = true
                    WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ? AND holder = ?
                      AND response_status IS NULL AND effect_status IS NOT NULL
                    """).params(owner.organizationId(), owner.subject(), key, holder).update();
        } finally {
            holds.letGo(holder);
        }
    }
}

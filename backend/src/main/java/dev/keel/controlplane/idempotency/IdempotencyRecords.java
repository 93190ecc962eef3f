package dev.keel.controlplane.idempotency;

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
import dev.keel.controlplane.shared.ProblemWriter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stored first responses per (organization, caller, key), kept for {@code keel.idempotency.retention}. Bodies are
 * stored sealed: a first response may carry a secret shown once (a Kafka user's password), and its replay must too.
 */
@Configuration
class IdempotencyRecords {

    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final SecretBox secrets;

    IdempotencyRecords(JdbcClient jdbc, JsonMapper json, SecretBox secrets) {
        this.jdbc = jdbc;
        this.json = json;
        this.secrets = secrets;
    }

    /** Whose keys these are: one caller (the token's subject) in one organization. */
    record Owner(UUID organizationId, String subject) {
    }

    record StoredResponse(String fingerprint, Integer status, Map<String, String> headers, byte[] body) {
    }

    @Bean
    FilterRegistrationBean<IdempotencyFilter> idempotencyFilter(ProblemWriter problems,
            @Qualifier("requestMappingHandlerMapping") ObjectProvider<HandlerMapping> operations) {
        return new FilterRegistrationBean<>(new IdempotencyFilter(this, problems, operations));
    }

    @Bean
    RecurringTask<Void> purgeIdempotencyRecords(@Value("${keel.idempotency.retention:24h}") Duration retention) {
        return Tasks.recurring("purge-idempotency-records", FixedDelay.ofMinutes(15))
                .execute((instance, context) -> jdbc.sql("DELETE FROM idempotency_records WHERE created_at < ?")
                        .param(java.sql.Timestamp.from(java.time.Instant.now().minus(retention)))
                        .update());
    }

    /** Empty when this request now owns the key; otherwise what the key already holds. */
    Optional<StoredResponse> claim(Owner owner, String key, String method, String path, String fingerprint) {
        int inserted = jdbc.sql("""
                INSERT INTO idempotency_records (organization_id, caller_subject, idempotency_key, request_method,
                                                 request_path, request_hash)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """).params(owner.organizationId(), owner.subject(), key, method, path, fingerprint).update();
        if (inserted == 1) {
            return Optional.empty();
        }
        return jdbc.sql("""
                SELECT request_hash, response_status, response_headers, response_body, response_sealed
                FROM idempotency_records
                WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ?
                """)
                .params(owner.organizationId(), owner.subject(), key)
                .query((rs, n) -> new StoredResponse(rs.getString("request_hash"), (Integer) rs.getObject("response_status"),
                        rs.getString("response_headers") == null ? Map.of() : json.readValue(rs.getString("response_headers"), HEADERS),
                        body(rs.getBytes("response_body"), rs.getBoolean("response_sealed"), owner, key)))
                .optional();
    }

    private byte[] body(byte[] stored, boolean sealed, Owner owner, String key) {
        return stored == null || !sealed ? stored : secrets.open(stored, context(owner, key));
    }

    private static String context(Owner owner, String key) {
        return "idempotency:" + owner.organizationId() + ":" + owner.subject() + ":" + key;
    }

    void complete(Owner owner, String key, int status, Map<String, String> headers, byte[] body) {
        jdbc.sql("""
                UPDATE idempotency_records
                SET response_status = ?, response_headers = ?::jsonb, response_body = ?, response_sealed = true
                WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ?
                """).params(status, json.writeValueAsString(headers), secrets.seal(body, context(owner, key)),
                        owner.organizationId(), owner.subject(), key)
                .update();
    }

    void release(Owner owner, String key) {
        jdbc.sql("""
                DELETE FROM idempotency_records
                WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ? AND response_status IS NULL
                """).params(owner.organizationId(), owner.subject(), key).update();
    }
}

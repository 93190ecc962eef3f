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

import dev.keel.controlplane.shared.ProblemWriter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Stored first responses per (organization, caller, key), kept for {@code keel.idempotency.retention}. */
@Configuration
class IdempotencyRecords {

    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;

    IdempotencyRecords(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
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
                SELECT request_hash, response_status, response_headers, response_body FROM idempotency_records
                WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ?
                """)
                .params(owner.organizationId(), owner.subject(), key)
                .query((rs, n) -> new StoredResponse(rs.getString("request_hash"), (Integer) rs.getObject("response_status"),
                        rs.getString("response_headers") == null ? Map.of() : json.readValue(rs.getString("response_headers"), HEADERS),
                        rs.getBytes("response_body")))
                .optional();
    }

    void complete(Owner owner, String key, int status, Map<String, String> headers, byte[] body) {
        jdbc.sql("""
                UPDATE idempotency_records SET response_status = ?, response_headers = ?::jsonb, response_body = ?
                WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ?
                """).params(status, json.writeValueAsString(headers), body, owner.organizationId(), owner.subject(), key)
                .update();
    }

    void release(Owner owner, String key) {
        jdbc.sql("""
                DELETE FROM idempotency_records
                WHERE organization_id = ? AND caller_subject = ? AND idempotency_key = ? AND response_status IS NULL
                """).params(owner.organizationId(), owner.subject(), key).update();
    }
}

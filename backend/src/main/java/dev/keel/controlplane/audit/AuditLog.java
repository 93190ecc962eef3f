package dev.keel.controlplane.audit;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.RequestIds;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The record of who changed what. Callers write in the transaction of the change itself, so an
 * event exists exactly when the change does.
 */
@Service
public class AuditLog {

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final RowMapper<AuditEvent> rows;

    AuditLog(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
        this.rows = (rs, n) -> new AuditEvent(rs.getObject("id", UUID.class),
                rs.getTimestamp("occurred_at").toInstant(),
                new AuditEvent.Actor(rs.getString("actor_subject"), rs.getString("actor_username")),
                rs.getString("action"), rs.getString("resource_type"), rs.getString("resource_id"),
                rs.getString("request_id"), readJson(rs.getString("before")), readJson(rs.getString("after")));
    }

    public void record(Caller caller, String action, String resourceType, Object resourceId, Object before, Object after) {
        insert(caller.organizationId(), caller.subject(), caller.username(), action, resourceType, resourceId,
                RequestIds.current(), before, after);
    }

    /**
     * A change the control plane made on its own (no request): the actor is the component, e.g.
     * {@code keel-reconciler}, with the subject {@code system:<component>}.
     */
    public void recordSystem(UUID organizationId, String component, String action, String resourceType,
                             Object resourceId, Object before, Object after) {
        insert(organizationId, "system:" + component, component, action, resourceType, resourceId, null, before, after);
    }

    private void insert(UUID organizationId, String subject, String username, String action, String resourceType,
                        Object resourceId, String requestId, Object before, Object after) {
        jdbc.sql("""
                INSERT INTO audit_events (id, organization_id, actor_subject, actor_username, action, resource_type,
                                          resource_id, request_id, before, after)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)
                """)
                .params(UUID.randomUUID(), organizationId, subject, username, action, resourceType,
                        String.valueOf(resourceId), requestId, writeJson(before), writeJson(after))
                .update();
    }

    Page<AuditEvent> list(UUID organizationId, String resourceType, String resourceId, Cursor after, int limit) {
        List<AuditEvent> events = Cursor.bind(jdbc.sql("""
                SELECT * FROM audit_events
                WHERE organization_id = :org
                  AND (CAST(:type AS text) IS NULL OR resource_type = :type)
                  AND (CAST(:resource AS text) IS NULL OR resource_id = :resource)
                  AND (CAST(:afterTime AS timestamptz) IS NULL OR (occurred_at, id) < (:afterTime, :afterId))
                ORDER BY occurred_at DESC, id DESC
                LIMIT :limit
                """), after)
                .param("org", organizationId)
                .param("type", resourceType)
                .param("resource", resourceId)
                .param("limit", limit + 1)
                .query(rows)
                .list();
        return Cursor.page(events, limit, e -> new Cursor(e.occurredAt(), e.id()));
    }

    private String writeJson(Object value) {
        return value == null ? null : json.writeValueAsString(value);
    }

    private JsonNode readJson(String value) {
        return value == null ? null : json.readTree(value);
    }

    public record AuditEvent(UUID id, Instant occurredAt, Actor actor, String action, String resourceType,
                             String resourceId, String requestId, JsonNode before, JsonNode after) {
        public record Actor(String subject, String username) {
        }
    }
}

package dev.keel.controlplane.kafkaaccess;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.shared.Cursor;

/** The {@code kafka_acls} table. */
@Component
class AclRows {

    static final RowMapper<KafkaAcl> VIEW = (rs, n) -> new KafkaAcl(rs.getObject("id", UUID.class),
            rs.getString("principal"), KafkaAcl.ResourceType.valueOf(rs.getString("resource_type")),
            rs.getString("resource_name"), KafkaAcl.PatternType.valueOf(rs.getString("pattern_type")),
            KafkaAcl.AclOperation.valueOf(rs.getString("operation")), KafkaAcl.Permission.valueOf(rs.getString("permission")),
            rs.getString("host"), AccessStatus.valueOf(rs.getString("status")), rs.getString("status_message"),
            UserRows.instant(rs, "created_at"), UserRows.instant(rs, "restored_at"));

    private final JdbcClient jdbc;

    AclRows(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Records the binding, {@code CREATING}; empty when the instance already has it. */
    Optional<KafkaAcl> insert(UUID instanceId, KafkaAclCreation acl) {
        return jdbc.sql("""
                INSERT INTO kafka_acls (id, instance_id, principal, resource_type, resource_name, pattern_type, operation,
                                        permission, host, status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'CREATING') ON CONFLICT DO NOTHING RETURNING *
                """).params(UUID.randomUUID(), instanceId, acl.principal(), acl.resourceType().name(), acl.resourceName(),
                        acl.patternType().name(), acl.operation().name(), acl.permission().name(), acl.hostOrAny())
                .query(VIEW).optional();
    }

    Optional<KafkaAcl> find(UUID instanceId, UUID id) {
        return jdbc.sql("SELECT * FROM kafka_acls WHERE instance_id = ? AND id = ?").params(instanceId, id)
                .query(VIEW).optional();
    }

    Optional<KafkaAcl> lock(UUID instanceId, UUID id) {
        return jdbc.sql("SELECT * FROM kafka_acls WHERE instance_id = ? AND id = ? FOR UPDATE").params(instanceId, id)
                .query(VIEW).optional();
    }

    /** Oldest first, after {@code after} (null: from the first), of one principal when it is given. */
    List<KafkaAcl> page(UUID instanceId, String principal, Cursor after, int rows) {
        return Cursor.bind(jdbc.sql("""
                SELECT * FROM kafka_acls
                WHERE instance_id = :instance AND (CAST(:principal AS text) IS NULL OR principal = :principal)
                  AND (CAST(:afterTime AS timestamptz) IS NULL OR (created_at, id) > (:afterTime, :afterId))
                ORDER BY created_at, id LIMIT :rows
                """), after).param("instance", instanceId).param("principal", principal).param("rows", rows)
                .query(VIEW).list();
    }

    KafkaAcl markDeleting(UUID instanceId, UUID id) {
        return jdbc.sql("""
                UPDATE kafka_acls SET status = 'DELETING', status_message = NULL
                WHERE instance_id = ? AND id = ? RETURNING *
                """).params(instanceId, id).query(VIEW).single();
    }
}

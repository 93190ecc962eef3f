package dev.keel.controlplane.kafkaaccess;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The {@code kafka_users} table. Passwords go in sealed ({@link Passwords}) and never come out through here. */
@Component
class UserRows {

    static final RowMapper<KafkaUser> VIEW = (rs, n) -> new KafkaUser(rs.getString("name"), KafkaUser.MECHANISM,
            AccessStatus.valueOf(rs.getString("status")), rs.getString("status_message"), rs.getInt("credential_version"),
            instant(rs, "created_at"), instant(rs, "password_rotated_at"), instant(rs, "restored_at"));

    private final JdbcClient jdbc;
    private final Passwords passwords;

    UserRows(JdbcClient jdbc, Passwords passwords) {
        this.jdbc = jdbc;
        this.passwords = passwords;
    }

    /** Records a new user with credential version 1; empty when the instance already has a user of that name. */
    Optional<KafkaUser> insert(UUID instanceId, String name, String password) {
        return jdbc.sql("""
                INSERT INTO kafka_users (instance_id, name, status, credential_version, sealed_password)
                VALUES (?, ?, 'CREATING', 1, ?) ON CONFLICT DO NOTHING RETURNING *
                """).params(instanceId, name, passwords.seal(password, instanceId, name, 1)).query(VIEW).optional();
    }

    Optional<KafkaUser> find(UUID instanceId, String name) {
        return jdbc.sql("SELECT * FROM kafka_users WHERE instance_id = ? AND name = ?")
                .params(instanceId, name).query(VIEW).optional();
    }

    Optional<KafkaUser> lock(UUID instanceId, String name) {
        return jdbc.sql("SELECT * FROM kafka_users WHERE instance_id = ? AND name = ? FOR UPDATE")
                .params(instanceId, name).query(VIEW).optional();
    }

    /** Users by name after {@code afterName} (null: from the first). */
    List<KafkaUser> page(UUID instanceId, String afterName, int rows) {
        return jdbc.sql("""
                SELECT * FROM kafka_users
                WHERE instance_id = :instance AND (CAST(:after AS text) IS NULL OR name COLLATE "C" > :after)
                ORDER BY name COLLATE "C" LIMIT :rows
                """).param("instance", instanceId).param("after", afterName).param("rows", rows).query(VIEW).list();
    }

    /** A new password, to be applied: {@code UPDATING}, or still {@code CREATING} if the first never was. */
    KafkaUser rotate(KafkaUser user, UUID instanceId, String password) {
        int version = user.credentialVersion() + 1;
        return jdbc.sql("""
                UPDATE kafka_users
                SET credential_version = ?, sealed_password = ?, password_rotated_at = now(), status_message = NULL,
                    status = CASE status WHEN 'CREATING' THEN 'CREATING' ELSE 'UPDATING' END
                WHERE instance_id = ? AND name = ? RETURNING *
                """).params(version, passwords.seal(password, instanceId, user.name(), version), instanceId, user.name())
                .query(VIEW).single();
    }

    KafkaUser markDeleting(UUID instanceId, String name) {
        return jdbc.sql("""
                UPDATE kafka_users SET status = 'DELETING', status_message = NULL
                WHERE instance_id = ? AND name = ? RETURNING *
                """).params(instanceId, name).query(VIEW).single();
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}

package dev.keel.controlplane.identity;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Organizations and memberships as the identity provider asserts them: an organization is created
 * the first time a token names it, and a membership row remembers who a subject is.
 */
@Service
public class Organizations {

    private static final RowMapper<Organization> ROW = (rs, n) -> new Organization(rs.getObject("id", UUID.class),
            rs.getString("slug"), rs.getString("name"), rs.getString("external_id"));

    private final JdbcClient jdbc;
    private final Map<String, Organization> bySlug = new ConcurrentHashMap<>();
    private final Map<String, Boolean> recordedMemberships = new ConcurrentHashMap<>();

    public Organizations(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Organization ensure(String slug) {
        return bySlug.computeIfAbsent(slug, this::insertIfAbsent);
    }

    public Optional<Organization> find(UUID id) {
        return jdbc.sql("SELECT id, slug, name, external_id FROM organizations WHERE id = ?")
                .param(id)
                .query(ROW)
                .optional();
    }

    void recordMembership(UUID organizationId, String subject, String username, Role role) {
        String key = organizationId + "|" + subject + "|" + username + "|" + role;
        recordedMemberships.computeIfAbsent(key, k -> {
            jdbc.sql("""
                    INSERT INTO memberships (organization_id, subject, username, role) VALUES (?, ?, ?, ?)
                    ON CONFLICT (organization_id, subject)
                    DO UPDATE SET username = excluded.username, role = excluded.role, last_seen_at = now()
                    """)
                    .params(organizationId, subject, username, role.wireName())
                    .update();
            return true;
        });
    }

    private Organization insertIfAbsent(String slug) {
        String externalId = "keel-" + UUID.randomUUID().toString().replace("-", "");
        jdbc.sql("INSERT INTO organizations (id, slug, name, external_id) VALUES (?, ?, ?, ?) ON CONFLICT (slug) DO NOTHING")
                .params(UUID.randomUUID(), slug, slug, externalId)
                .update();
        return jdbc.sql("SELECT id, slug, name, external_id FROM organizations WHERE slug = ?")
                .param(slug)
                .query(ROW)
                .single();
    }
}

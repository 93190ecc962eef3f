package dev.keel.controlplane.kafkaaccess;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.ListenerSecurityGuard;

/**
 * What an instance's broker agent is to make true on the brokers (the agent's pull, {@code agent-access.schema.json}).
 * A user's password is in it only while the brokers may lack it: its credential version is not yet reported applied, or
 * the last report found the user missing.
 */
@Component
class DesiredAccess {

    /**
     * {@code delivery}: the number of the newest delivery of the instance's credentials, which a report of this
     * document applied in full makes applied.
     */
    record Document(long delivery, List<User> users, List<String> removedUsers, List<Acl> acls, List<Acl> removedAcls,
                    List<TopicChange> topicChanges) {
    }

    record User(String name, int credentialVersion, String password) {

        @Override
        public String toString() {
            return "User[name=" + name + ", credentialVersion=" + credentialVersion + ", password=(redacted)]";
        }
    }

    record Acl(UUID id, String principal, String host, String resourceType, String resourceName, String patternType,
               String operation, String permission) {
    }

    record TopicChange(UUID id, String action, String name, Integer partitions, Integer replicationFactor,
                       Map<String, String> configs) {
    }

    private final JdbcClient jdbc;
    private final Passwords passwords;
    private final TopicRows topics;
    private final TransactionTemplate snapshots;

    DesiredAccess(JdbcClient jdbc, Passwords passwords, TopicRows topics, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.passwords = passwords;
        this.topics = topics;
        // The delivery and the passwords are read in one snapshot: a delivery asked for after the passwords were read
        // would otherwise be reported applied by a pass that wrote none.
        this.snapshots = new TransactionTemplate(transactions.getTransactionManager());
        this.snapshots.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.snapshots.setReadOnly(true);
    }

    Document of(Instance instance) {
        return snapshots.execute(tx -> read(instance));
    }

    private Document read(Instance instance) {
        UUID instanceId = instance.id();
        long delivery = jdbc.sql("SELECT requested FROM access_deliveries WHERE instance_id = ?").param(instanceId)
                .query(Long.class).optional().orElse(0L);
        List<User> users = new ArrayList<>();
        List<String> removedUsers = new ArrayList<>();
        List<Acl> acls = new ArrayList<>();
        List<Acl> removedAcls = new ArrayList<>();
        if (ListenerSecurityGuard.authenticates(instance)) {
            jdbc.sql("SELECT * FROM kafka_users WHERE instance_id = ? ORDER BY name").param(instanceId).query(rs -> {
                String name = rs.getString("name");
                if (AccessStatus.DELETING.name().equals(rs.getString("status"))) {
                    removedUsers.add(name);
                    return;
                }
                int version = rs.getInt("credential_version");
                Integer applied = (Integer) rs.getObject("applied_credential_version");
                boolean needed = applied == null || applied != version || rs.getBoolean("reported_absent");
                users.add(new User(name, version,
                        needed ? passwords.open(rs.getBytes("sealed_password"), instanceId, name, version) : null));
            });
            jdbc.sql("SELECT * FROM kafka_acls WHERE instance_id = ? ORDER BY created_at, id").param(instanceId)
                    .query(AclRows.VIEW).list().forEach(acl -> (acl.status() == AccessStatus.DELETING ? removedAcls : acls)
                            .add(new Acl(acl.id(), acl.principal(), acl.host(), acl.resourceType().name(),
                                    acl.resourceName(), acl.patternType().name(), acl.operation().name(),
                                    acl.permission().name())));
        }
        List<TopicChange> changes = topics.pending(instanceId).stream()
                .map(c -> new TopicChange(c.id(), c.action().name(), c.topicName(), c.partitions(), c.replicationFactor(),
                        c.configs()))
                .toList();
        return new Document(delivery, users, removedUsers, acls, removedAcls, changes);
    }
}

package dev.keel.controlplane.kafkaaccess;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.instances.BrokerCredentials;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.shared.ApiException;

/**
 * Takes in the agent's report of one pass, in one transaction: users and ACLs move along their statuses (a user or
 * ACL put back after being removed behind Keel's back is audited as a restoration), items reported gone after a delete
 * are dropped, applied topic changes are done, refused ones kept with Kafka's message, and the topic inventory replaced.
 */
@Component
class AccessReports {

    /** The actor of what the agent restored: the reconciliation, not a person. */
    static final String COMPONENT = "keel-access-reconciler";

    private final JdbcClient jdbc;
    private final UserRows users;
    private final AclRows acls;
    private final TopicRows topics;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final ApplicationEventPublisher events;

    AccessReports(JdbcClient jdbc, UserRows users, AclRows acls, TopicRows topics, AuditLog audit,
                  TransactionTemplate transactions, Clock clock, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.users = users;
        this.acls = acls;
        this.topics = topics;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
        this.events = events;
    }

    void record(Instance instance, AccessReport report) {
        if (!report.problems().isEmpty()) {
            throw ApiException.validation(report.problems());
        }
        Instant now = clock.instant();
        boolean delivered = Boolean.TRUE.equals(transactions.execute(tx -> {
            // Taken first, as a topic change through the API takes it: what that change reads cannot move under it.
            topics.lockTopics(instance.id());
            report.users().forEach(user -> user(instance, user));
            report.acls().forEach(acl -> acl(instance, acl));
            for (AccessReport.TopicChange change : report.topicChanges()) {
                if (change.error() == null) {
                    topics.applied(instance.id(), change.id());
                } else {
                    topics.refused(instance.id(), change.id(), change.error());
                }
            }
            topics.replaceObserved(instance.id(), report.topics().stream()
                    .map(t -> new TopicRows.Observed(t.name(), t.partitions(), t.replicationFactor(), t.configs(),
                            t.sizeBytes(), now))
                    .toList());
            return delivered(instance, report.delivery());
        }));
        if (delivered) {
            events.publishEvent(new BrokerCredentials.Delivered(instance.id()));
        }
    }

    /**
     * Records the report's delivery applied when, after it, every user the instance is to have is on the brokers at its
     * credential version: the pass wrote every password that delivery sent. True when that moves the applied delivery.
     */
    private boolean delivered(Instance instance, long delivery) {
        return jdbc.sql("""
                UPDATE access_deliveries SET applied = ?
                WHERE instance_id = ? AND applied < ? AND requested >= ?
                  AND NOT EXISTS (SELECT 1 FROM kafka_users u WHERE u.instance_id = access_deliveries.instance_id
                                  AND u.status <> 'DELETING' AND (u.reported_absent
                                  OR u.applied_credential_version IS DISTINCT FROM u.credential_version))
                """).params(delivery, instance.id(), delivery, delivery).update() == 1;
    }

    private void user(Instance instance, AccessReport.User reported) {
        Optional<KafkaUser> row = users.lock(instance.id(), reported.name());
        if (row.isEmpty()) {
            return;
        }
        AccessStatus status = row.get().status();
        int version = row.get().credentialVersion();
        if (status == AccessStatus.DELETING) {
            if (!reported.present()) {
                jdbc.sql("DELETE FROM kafka_users WHERE instance_id = ? AND name = ?").params(instance.id(), reported.name())
                        .update();
            } else {
                setUser(instance, reported.name(), status, reported.error(), false, null, false);
            }
            return;
        }
        boolean upToDate = reported.present() && reported.appliedCredentialVersion() != null
                && reported.appliedCredentialVersion() == version;
        if (upToDate) {
            boolean restored = status == AccessStatus.RESTORING;
            setUser(instance, reported.name(), AccessStatus.ACTIVE, reported.error(), false, version, restored);
            if (restored) {
                audit.recordSystem(instance.organizationId(), COMPONENT, "kafka-user.restored", KafkaUsers.AUDIT_TYPE,
                        NamedItemAuditId.of(instance.id(), reported.name()), null,
                        users.find(instance.id(), reported.name()).orElseThrow());
            }
        } else if (!reported.present()) {
            // Missing from the brokers: the password is sent again; an active user missing was removed behind Keel's back.
            AccessStatus next = status == AccessStatus.ACTIVE ? AccessStatus.RESTORING : status;
            setUser(instance, reported.name(), next, reported.error(), true, null, false);
        } else {
            setUser(instance, reported.name(), status, reported.error(), false, null, false);
        }
    }

    /** Sets the user's status and message; {@code applied}, when given, is the credential version now on the brokers. */
    private void setUser(Instance instance, String name, AccessStatus status, String message, boolean absent,
                         Integer applied, boolean restored) {
        jdbc.sql("""
                UPDATE kafka_users
                SET status = ?, status_message = ?, reported_absent = ?,
                    applied_credential_version = COALESCE(?, applied_credential_version),
                    restored_at = CASE WHEN ? THEN now() ELSE restored_at END
                WHERE instance_id = ? AND name = ?
                """).params(status.name(), message, absent, applied, restored, instance.id(), name).update();
    }

    private void acl(Instance instance, AccessReport.Acl reported) {
        Optional<KafkaAcl> found = acls.lock(instance.id(), reported.id());
        if (found.isEmpty()) {
            return;
        }
        KafkaAcl acl = found.get();
        if (acl.status() == AccessStatus.DELETING && !reported.present()) {
            jdbc.sql("DELETE FROM kafka_acls WHERE id = ?").param(acl.id()).update();
            return;
        }
        boolean restored = acl.status() == AccessStatus.ACTIVE && reported.present() && reported.created();
        AccessStatus next = acl.status() == AccessStatus.CREATING && reported.present() ? AccessStatus.ACTIVE : acl.status();
        jdbc.sql("""
                UPDATE kafka_acls SET status = ?, status_message = ?, restored_at = CASE WHEN ? THEN now() ELSE restored_at END
                WHERE id = ?
                """).params(next.name(), reported.error(), restored, acl.id()).update();
        if (restored) {
            audit.recordSystem(instance.organizationId(), COMPONENT, "kafka-acl.restored", KafkaAcls.AUDIT_TYPE, acl.id(),
                    acl, acls.find(instance.id(), acl.id()).orElseThrow());
        }
    }
}

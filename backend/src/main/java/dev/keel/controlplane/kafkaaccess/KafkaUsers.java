package dev.keel.controlplane.kafkaaccess;

import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.ProblemType;

/**
 * Kafka users through the API. Each change is recorded with its audit event in one transaction; the broker agent
 * applies it later ({@link AccessReports}). A password is answered only by the request that generated it.
 */
@Service
class KafkaUsers {

    /** Kafka's SCRAM names may hold more, but never {@code =} or {@code ,}; Keel keeps to names every tool quotes alike. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    static final String AUDIT_TYPE = "kafka-user";

    private final AccessibleInstances instances;
    private final UserRows rows;
    private final Passwords passwords;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final ChangeAnswers answers;

    KafkaUsers(AccessibleInstances instances, UserRows rows, Passwords passwords, AuditLog audit,
               TransactionTemplate transactions, ChangeAnswers answers) {
        this.instances = instances;
        this.rows = rows;
        this.passwords = passwords;
        this.audit = audit;
        this.transactions = transactions;
        this.answers = answers;
    }

    record Credentials(KafkaUser user, String password) {

        @Override
        public String toString() {
            return "Credentials[user=" + user + ", password=(redacted)]";
        }
    }

    Page<KafkaUser> list(Caller caller, UUID instanceId, String cursor, Integer limit) {
        String after = NameCursor.decode(cursor);
        int size = Cursor.limit(limit);
        Instance instance = instances.withAuthentication(instances.toRead(caller, instanceId));
        return NameCursor.page(rows.page(instance.id(), after, size + 1), size, KafkaUser::name);
    }

    KafkaUser get(Caller caller, UUID instanceId, String name) {
        Instance instance = instances.toRead(caller, instanceId);
        return rows.find(instance.id(), name).orElseThrow(() -> notFound(instanceId, name));
    }

    Credentials create(Caller caller, UUID instanceId, KafkaUserCreation request) {
        String name = request.name();
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiException.validation("name", "must be 1 to 64 characters of letters, digits, '.', '_' and '-'");
        }
        return transactions.execute(tx -> {
            Instance instance = instances.withAuthentication(instances.toChange(caller, instanceId));
            String password = passwords.generate();
            KafkaUser user = rows.insert(instance.id(), name, password).orElseThrow(() -> ApiException.of(
                    ProblemType.NAME_TAKEN, "name", "Instance " + instanceId + " already has a Kafka user " + name + "."));
            audit.record(caller, "kafka-user.create", AUDIT_TYPE, NamedItemAuditId.of(instanceId, name), null, user);
            return answers.record(new Credentials(user, password));
        });
    }

    Credentials rotatePassword(Caller caller, UUID instanceId, String name) {
        return transactions.execute(tx -> {
            Instance instance = instances.withAuthentication(instances.toChange(caller, instanceId));
            KafkaUser before = rows.lock(instance.id(), name).orElseThrow(() -> notFound(instanceId, name));
            if (before.status() == AccessStatus.DELETING) {
                throw ApiException.of(ProblemType.OPERATION_IN_PROGRESS, "Kafka user " + name
                        + " is being deleted; create it again once it is gone.");
            }
            String password = passwords.generate();
            KafkaUser after = rows.rotate(before, instance.id(), password);
            audit.record(caller, "kafka-user.rotate-password", AUDIT_TYPE, NamedItemAuditId.of(instanceId, name), before, after);
            return answers.record(new Credentials(after, password));
        });
    }

    KafkaUser delete(Caller caller, UUID instanceId, String name) {
        return transactions.execute(tx -> {
            Instance instance = instances.toChange(caller, instanceId);
            KafkaUser before = rows.lock(instance.id(), name).orElseThrow(() -> notFound(instanceId, name));
            if (before.status() == AccessStatus.DELETING) {
                return before;
            }
            KafkaUser after = rows.markDeleting(instance.id(), name);
            audit.record(caller, "kafka-user.delete", AUDIT_TYPE, NamedItemAuditId.of(instanceId, name), before, after);
            return answers.record(after);
        });
    }

    private static ApiException notFound(UUID instanceId, String name) {
        return ApiException.of(ProblemType.NOT_FOUND, "Instance " + instanceId + " has no Kafka user " + name + ".");
    }
}

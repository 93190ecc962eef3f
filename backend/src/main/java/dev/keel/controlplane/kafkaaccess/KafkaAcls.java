package dev.keel.controlplane.kafkaaccess;

import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.FieldError;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.ProblemType;

/** ACL bindings through the API, each change recorded with its audit event; the broker agent applies them. */
@Service
class KafkaAcls {

    static final String AUDIT_TYPE = "kafka-acl";

    private final AccessibleInstances instances;
    private final AclRows rows;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final ChangeAnswers answers;

    KafkaAcls(AccessibleInstances instances, AclRows rows, AuditLog audit, TransactionTemplate transactions,
              ChangeAnswers answers) {
        this.instances = instances;
        this.rows = rows;
        this.audit = audit;
        this.transactions = transactions;
        this.answers = answers;
    }

    Page<KafkaAcl> list(Caller caller, UUID instanceId, String principal, String cursor, Integer limit) {
        if (principal != null && (principal.isEmpty() || principal.length() > AclRules.MAX_PRINCIPAL)) {
            throw ApiException.validation("principal", "must be 1 to " + AclRules.MAX_PRINCIPAL + " characters");
        }
        Cursor after = Cursor.decode(cursor);
        int size = Cursor.limit(limit);
        Instance instance = instances.withAuthentication(instances.toRead(caller, instanceId));
        return Cursor.page(rows.page(instance.id(), principal, after, size + 1), size,
                acl -> new Cursor(acl.createdAt(), acl.id()));
    }

    KafkaAcl get(Caller caller, UUID instanceId, UUID id) {
        Instance instance = instances.toRead(caller, instanceId);
        return rows.find(instance.id(), id).orElseThrow(() -> notFound(instanceId, id));
    }

    KafkaAcl create(Caller caller, UUID instanceId, KafkaAclCreation request) {
        List<FieldError> errors = AclRules.check(request);
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
        return transactions.execute(tx -> {
            Instance instance = instances.withAuthentication(instances.toChange(caller, instanceId));
            KafkaAcl acl = rows.insert(instance.id(), request).orElseThrow(() -> ApiException.of(ProblemType.ACL_EXISTS,
                    "Instance " + instanceId + " already has this ACL binding; list its ACLs with principal="
                            + request.principal() + " to find it."));
            audit.record(caller, "kafka-acl.create", AUDIT_TYPE, acl.id(), null, acl);
            return answers.record(acl);
        });
    }

    KafkaAcl delete(Caller caller, UUID instanceId, UUID id) {
        return transactions.execute(tx -> {
            Instance instance = instances.toChange(caller, instanceId);
            KafkaAcl before = rows.lock(instance.id(), id).orElseThrow(() -> notFound(instanceId, id));
            if (before.status() == AccessStatus.DELETING) {
                return before;
            }
            KafkaAcl after = rows.markDeleting(instance.id(), id);
            audit.record(caller, "kafka-acl.delete", AUDIT_TYPE, id, before, after);
            return answers.record(after);
        });
    }

    private static ApiException notFound(UUID instanceId, UUID id) {
        return ApiException.of(ProblemType.NOT_FOUND, "Instance " + instanceId + " has no ACL " + id + ".");
    }
}

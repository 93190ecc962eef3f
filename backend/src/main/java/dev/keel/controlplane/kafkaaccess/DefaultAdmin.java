package dev.keel.controlplane.kafkaaccess;

import java.util.List;
import java.util.Optional;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.instances.DefaultKafkaUser;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.ListenerSecurityGuard;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.AclOperation;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.PatternType;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.Permission;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.ResourceType;

/**
 * Every instance whose brokers authenticate starts with user {@code admin}, allowed everything on every topic, group,
 * transactional id and the cluster, so its owner can connect at once and make narrower users from there.
 */
@Component
class DefaultAdmin implements DefaultKafkaUser {

    static final String NAME = "admin";

    private static final List<KafkaAclCreation> ACLS = List.of(
            allowAll(ResourceType.TOPIC, "*"), allowAll(ResourceType.GROUP, "*"),
            allowAll(ResourceType.TRANSACTIONAL_ID, "*"), allowAll(ResourceType.CLUSTER, AclRules.CLUSTER_NAME));

    private final UserRows users;
    private final AclRows acls;
    private final Passwords passwords;
    private final AuditLog audit;

    DefaultAdmin(UserRows users, AclRows acls, Passwords passwords, AuditLog audit) {
        this.users = users;
        this.acls = acls;
        this.passwords = passwords;
        this.audit = audit;
    }

    @Override
    public Optional<AdminCredentials> createFor(Caller caller, Instance instance) {
        if (!ListenerSecurityGuard.authenticates(instance)) {
            return Optional.empty();
        }
        String password = passwords.generate();
        KafkaUser user = users.insert(instance.id(), NAME, password).orElseThrow();
        audit.record(caller, "kafka-user.create", KafkaUsers.AUDIT_TYPE, NamedItemAuditId.of(instance.id(), NAME), null, user);
        for (KafkaAclCreation binding : ACLS) {
            KafkaAcl acl = acls.insert(instance.id(), binding).orElseThrow();
            audit.record(caller, "kafka-acl.create", KafkaAcls.AUDIT_TYPE, acl.id(), null, acl);
        }
        return Optional.of(new AdminCredentials(NAME, password));
    }

    private static KafkaAclCreation allowAll(ResourceType type, String name) {
        return new KafkaAclCreation("User:" + NAME, type, name, PatternType.LITERAL, AclOperation.ALL, Permission.ALLOW,
                KafkaAclCreation.ANY_HOST);
    }
}

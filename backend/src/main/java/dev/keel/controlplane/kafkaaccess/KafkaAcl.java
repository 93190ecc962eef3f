package dev.keel.controlplane.kafkaaccess;

import java.time.Instant;
import java.util.UUID;

/** An ACL binding Keel manages, as the API shows it. */
record KafkaAcl(UUID id, String principal, ResourceType resourceType, String resourceName, PatternType patternType,
                AclOperation operation, Permission permission, String host, AccessStatus status, String statusMessage,
                Instant createdAt, Instant restoredAt) {

    enum ResourceType { TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID }

    enum PatternType { LITERAL, PREFIXED }

    enum AclOperation {
        ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS,
        IDEMPOTENT_WRITE
    }

    enum Permission { ALLOW, DENY }
}

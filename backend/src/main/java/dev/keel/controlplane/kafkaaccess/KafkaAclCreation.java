package dev.keel.controlplane.kafkaaccess;

import dev.keel.controlplane.kafkaaccess.KafkaAcl.AclOperation;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.PatternType;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.Permission;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.ResourceType;

/** An ACL binding to record; {@code host} left out means any host. */
record KafkaAclCreation(String principal, ResourceType resourceType, String resourceName, PatternType patternType,
                        AclOperation operation, Permission permission, String host) {

    static final String ANY_HOST = "*";

    String hostOrAny() {
        return host == null ? ANY_HOST : host;
    }
}

package dev.keel.controlplane.kafkaaccess;

import java.util.UUID;

/** How audit events name an item of an instance that Kafka knows by name, not by id: a user, a topic. */
final class NamedItemAuditId {

    private NamedItemAuditId() {
    }

    static String of(UUID instanceId, String name) {
        return instanceId + "/" + name;
    }
}

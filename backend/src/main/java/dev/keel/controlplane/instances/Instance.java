package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import dev.keel.provisioner.Inventory;

/**
 * An instance as stored: desired spec, lifecycle state and what was last observed in the cloud; whether a delete is
 * refused ({@code deletionProtection}), and until when a delete keeps its data bucket ({@code dataRetainedUntil},
 * null when nothing is kept).
 */
public record Instance(UUID id, UUID organizationId, UUID cloudAccountId, String name, String region,
                       InstanceState state, InstanceSpec spec, int specVersion, Inventory inventory,
                       List<Condition> conditions, Instant createdAt, Instant updatedAt, boolean deletionProtection,
                       Instant dataRetainedUntil) {

    public String etag() {
        return "\"" + specVersion + "\"";
    }
}

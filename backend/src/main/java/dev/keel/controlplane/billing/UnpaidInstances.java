package dev.keel.controlplane.billing;

import java.util.List;
import java.util.UUID;

/**
 * How billing has an unpaid organization's instances deleted: the instances feature implements it with its own
 * delete, so billing needs nothing of instances but this.
 */
public interface UnpaidInstances {

    /**
     * Queues the delete of each of the organization's instances not already deleted or being deleted, keeping its data
     * for the retention period, audited as {@code actor}'s with {@code reason}. Deletion protection does not keep an
     * unpaid instance running. An instance whose other operation is still unfinished is left for the next call.
     *
     * @return the instances whose delete this call queued
     */
    List<UUID> deleteAll(UUID organizationId, String actor, String reason);
}

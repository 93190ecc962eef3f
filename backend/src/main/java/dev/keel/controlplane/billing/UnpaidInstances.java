package dev.keel.controlplane.billing;

import java.time.Instant;
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
     * unpaid instance running. An instance whose other operation is still unfinished is left for the next call; one
     * whose delete {@code actor} queued since {@code since} is left alone, so a delete that failed (the customer's
     * role gone, say) is not queued again and again: the instance shows the failure, and its members delete it.
     *
     * @return the instances whose delete this call queued
     */
    List<UUID> deleteAll(UUID organizationId, Instant since, String actor, String reason);
}

package dev.keel.controlplane.billing;

import java.time.Instant;
import java.util.UUID;

/**
 * One hour of one dimension of a buyer, billed to the organization's Marketplace subscription, as the metering ledger
 * holds it: what was (or will be) sent to AWS, and what AWS answered.
 */
record MeteringRecord(UUID id, UUID subscriptionId, String customerAwsAccountId, String licenseArn,
                      String customerIdentifier, String dimension, Instant hour, int quantity, State state,
                      String meteringRecordId, int attempts, String lastError, Instant createdAt, Instant updatedAt) {

    enum State {
        PENDING, SENT, ACCEPTED, DUPLICATE, FAILED, UNKNOWN, NOT_SUBSCRIBED
    }
}

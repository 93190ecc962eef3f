package dev.keel.controlplane.cloudaccounts;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A customer AWS account the control plane may enter by assuming {@code roleArn} with {@code externalId}. */
public record CloudAccount(UUID id, String name, String awsAccountId, String roleArn, String externalId,
                           List<String> regions, Status status, Verification verification, Instant createdAt) {

    public enum Status {
        PENDING_VERIFICATION, VERIFIED, VERIFICATION_FAILED
    }

    public record Verification(Instant checkedAt, List<String> missingActions, String message) {
    }
}

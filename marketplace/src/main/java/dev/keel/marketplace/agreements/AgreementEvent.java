package dev.keel.marketplace.agreements;

import java.time.Instant;
import java.util.Objects;

/**
 * One change to a buyer's agreement, from either shape AWS delivers it in (an EventBridge event from
 * {@code aws.agreement-marketplace} or a legacy SNS notification). Delivered at least once and in no particular order:
 * {@code id} spots the duplicates, {@code occurredAt} (AWS's time, not ours) orders them.
 *
 * <p>Who it is about depends on the shape: licence events name the licence, agreement events only the agreement and
 * the buyer's account (the licence of an agreement is learnt from its licence events), legacy notifications the
 * {@code CustomerIdentifier}.
 *
 * @param id                   the EventBridge event id, or the SNS MessageId
 * @param productCode          the listing's product code where the message says it (licence events, legacy
 *                             notifications), otherwise null
 * @param agreementId          EventBridge only
 * @param licenseArn           licence events only
 * @param customerAwsAccountId the buyer's account (EventBridge {@code acceptor.accountId})
 * @param customerIdentifier   legacy notifications only
 */
public record AgreementEvent(String id, Kind kind, Instant occurredAt, String productCode, String agreementId,
                             String licenseArn, String customerAwsAccountId, String customerIdentifier) {

    public AgreementEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(occurredAt, "occurredAt");
        if (agreementId == null && licenseArn == null && customerIdentifier == null) {
            throw new IllegalArgumentException("an agreement event names an agreement, a licence or a customer");
        }
    }

    /** What happened, in one vocabulary for both shapes. */
    public enum Kind {
        /** Purchase Agreement Created (a new agreement; a renewal or replacement too), subscribe-success. */
        PURCHASED,
        /** Purchase Agreement Amended. */
        AMENDED,
        /** unsubscribe-pending: the buyer cancelled, the final usage may still be metered. */
        CANCELLING,
        /** Purchase Agreement Ended (cancelled, expired, terminated), License Deprovisioned, unsubscribe-success. */
        ENDED,
        /**
         * Purchase Agreement Ended because a renewal or replacement took its place: the buyer keeps buying, under
         * the agreement a Purchase Agreement Created of the same time names.
         */
        SUPERSEDED,
        /** subscribe-fail: the purchase never went through. */
        SUBSCRIBE_FAILED,
        /** License Updated, entitlement-updated: what the licence allows changed; GetEntitlements says to what. */
        ENTITLEMENT_CHANGED
    }
}

package dev.keel.marketplace.metering;

/**
 * What became of one usage record. {@code meteringRecordId} is AWS's id for an accepted record; {@code message} says
 * why a record was not accepted.
 */
public record MeteringOutcome(Status status, String meteringRecordId, String message) {

    public enum Status {
        /** AWS has the record (for a resend of the same record, it answers the earlier id). */
        ACCEPTED,
        /** AWS already has a record for this buyer, dimension and hour with a different quantity. */
        DUPLICATE,
        /** The buyer has no agreement AWS knows of (yet, or any more): try again while the hour can still be sent. */
        CUSTOMER_NOT_SUBSCRIBED,
        /** AWS did not process it (an unprocessed record, throttling, a service or network error): send it again later. */
        RETRY,
        /** AWS refused it for good (validation, a timestamp out of bounds, an unknown product): never resend it. */
        FAILED,
        /** The time the caller gave ran out before the record went out: AWS never saw it. */
        UNSENT
    }

    static MeteringOutcome accepted(String meteringRecordId) {
        return new MeteringOutcome(Status.ACCEPTED, meteringRecordId, null);
    }

    static MeteringOutcome of(Status status, String message) {
        return new MeteringOutcome(status, null, message);
    }
}

package dev.keel.marketplace.agreements;

/**
 * A message read from the agreement-event queue. It stays on the queue (and comes back after its visibility timeout)
 * until the caller has recorded it and hands its {@link #receipt()} to {@link AgreementQueue#acknowledge}.
 */
public sealed interface ReadMessage {

    /** The SQS MessageId. */
    String messageId();

    /** The SQS receipt handle that deletes this delivery of the message. */
    String receipt();

    record Event(String messageId, String receipt, AgreementEvent event) implements ReadMessage {
    }

    /**
     * A message that is no agreement event this product acts on (another service's, an agreement event kind that
     * changes no subscription) or that cannot be read: kept by the caller for a person to look at, never retried.
     */
    record Unknown(String messageId, String receipt, String body, String reason) implements ReadMessage {
    }
}

package dev.keel.controlplane.billing;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.keel.marketplace.agreements.AgreementEvent;

/**
 * The agreement events read from the queue, each once ({@code marketplace_agreement_events}), the messages that
 * were none ({@code marketplace_unknown_messages}), and how far the queue has been read and applied
 * ({@code marketplace_agreement_queue}).
 */
@Repository
class AgreementEventLog {

    /** An event waiting to be applied, with the subscription it is about. */
    record Waiting(AgreementEvent event, UUID subscriptionId) {
    }

    private final JdbcClient jdbc;

    AgreementEventLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Records the event unless it was recorded before (a redelivery): true when it is new. */
    boolean record(AgreementEvent event) {
        return jdbc.sql("""
                        INSERT INTO marketplace_agreement_events (event_id, kind, occurred_at, product_code, agreement_id,
                                                                  license_arn, customer_aws_account_id, customer_identifier)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING
                        """)
                .params(event.id(), event.kind().name(), Timestamp.from(event.occurredAt()), event.productCode(),
                        event.agreementId(), event.licenseArn(), event.customerAwsAccountId(),
                        event.customerIdentifier())
                .update() == 1;
    }

    void recordUnknown(String messageId, String body, String reason) {
        jdbc.sql("""
                        INSERT INTO marketplace_unknown_messages (message_id, body, reason) VALUES (?, ?, ?)
                        ON CONFLICT (message_id) DO NOTHING
                        """)
                .params(messageId, body, reason).update();
    }

    /**
     * The listing's unapplied events whose subscription is linked, oldest first: by the licence they name, the
     * licence their agreement's licence events name, or the legacy customer identifier. Events of a licence nobody
     * linked yet wait.
     */
    List<Waiting> waiting(String productCode, UUID subscriptionId, int limit) {
        return jdbc.sql("""
                        SELECT e.*, s.id AS linked_subscription_id
                        FROM marketplace_agreement_events e
                        JOIN marketplace_subscriptions s ON s.product_code = :product AND (
                               s.license_arn = COALESCE(e.license_arn,
                                   (SELECT l.license_arn FROM marketplace_agreement_events l
                                    WHERE l.agreement_id = e.agreement_id AND l.license_arn IS NOT NULL LIMIT 1))
                            OR s.customer_identifier = e.customer_identifier)
                        WHERE e.applied_at IS NULL AND (e.product_code IS NULL OR e.product_code = :product)
                          AND (CAST(:subscription AS uuid) IS NULL OR s.id = :subscription)
                        ORDER BY e.occurred_at, e.event_id
                        LIMIT :limit
                        """)
                .param("product", productCode).param("subscription", subscriptionId).param("limit", limit)
                .query((rs, n) -> new Waiting(new AgreementEvent(rs.getString("event_id"),
                        AgreementEvent.Kind.valueOf(rs.getString("kind")), rs.getTimestamp("occurred_at").toInstant(),
                        rs.getString("product_code"), rs.getString("agreement_id"), rs.getString("license_arn"),
                        rs.getString("customer_aws_account_id"), rs.getString("customer_identifier")),
                        rs.getObject("linked_subscription_id", UUID.class)))
                .list();
    }

    /**
     * Marks the event applied to (or passed over for) the subscription, in the caller's transaction; false when
     * another worker already did.
     */
    boolean applied(String eventId, UUID subscriptionId, boolean changed) {
        return jdbc.sql("""
                        UPDATE marketplace_agreement_events SET subscription_id = ?, applied_at = now(), outcome = ?
                        WHERE event_id = ? AND applied_at IS NULL
                        """)
                .params(subscriptionId, changed ? "APPLIED" : "IGNORED", eventId).update() == 1;
    }

    /**
     * The queue was read to its end from {@code readFrom} (database time) on, and every event read that a linked
     * subscription is waiting for is applied. Never moves back.
     */
    void drained(Instant readFrom) {
        jdbc.sql("UPDATE marketplace_agreement_queue SET drained_at = GREATEST(drained_at, ?)")
                .param(Timestamp.from(readFrom)).update();
    }

    /** When the queue was last read to its end with every event applied: what happened before that is known. */
    Instant drainedAt() {
        return jdbc.sql("SELECT drained_at FROM marketplace_agreement_queue").query(Timestamp.class).single().toInstant();
    }
}

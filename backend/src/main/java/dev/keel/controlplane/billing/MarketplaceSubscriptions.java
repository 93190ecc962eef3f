package dev.keel.controlplane.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The organizations' Marketplace subscriptions as agreement events and entitlement reads change them. */
@Repository
class MarketplaceSubscriptions {

    private final JdbcClient jdbc;

    MarketplaceSubscriptions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The organization's subscription: the one not ended, else the one that ended last. */
    Optional<MarketplaceSubscription> ofOrganization(UUID organizationId) {
        return jdbc.sql("""
                        SELECT * FROM marketplace_subscriptions WHERE organization_id = ?
                        ORDER BY state = 'ENDED', ended_at DESC LIMIT 1
                        """)
                .param(organizationId).query(MarketplaceSubscriptions::row).optional();
    }

    /** Locks the subscription for a change, in the caller's transaction. */
    MarketplaceSubscription lock(UUID id) {
        return jdbc.sql("SELECT * FROM marketplace_subscriptions WHERE id = ? FOR UPDATE")
                .param(id).query(MarketplaceSubscriptions::row).single();
    }

    MarketplaceSubscription get(UUID id) {
        return jdbc.sql("SELECT * FROM marketplace_subscriptions WHERE id = ?")
                .param(id).query(MarketplaceSubscriptions::row).single();
    }

    void moveTo(UUID id, SubscriptionLifecycle.Standing standing) {
        boolean ended = standing.state() == SubscriptionState.ENDED;
        jdbc.sql("UPDATE marketplace_subscriptions SET state = ?, state_event_at = ?, ended_at = ? WHERE id = ?")
                .params(standing.state().name(), Timestamp.from(standing.stateEventAt()),
                        ended ? Timestamp.from(standing.stateEventAt()) : null, id)
                .update();
    }

    void entitlementRead(UUID id, Integer entitledAku, Instant readAt) {
        jdbc.sql("UPDATE marketplace_subscriptions SET entitled_aku = ?, entitlement_read_at = ? WHERE id = ?")
                .params(entitledAku, Timestamp.from(readAt), id)
                .update();
    }

    /** Subscriptions of the listing whose entitlement was never read (linked, then the read failed or has not run). */
    List<UUID> entitlementUnread(String productCode, int limit) {
        return jdbc.sql("""
                        SELECT id FROM marketplace_subscriptions
                        WHERE product_code = ? AND entitlement_read_at IS NULL AND state <> 'ENDED'
                        ORDER BY created_at LIMIT ?
                        """)
                .params(productCode, limit).query(UUID.class).list();
    }

    /**
     * Per organization with instances not deleted nor being deleted, its subscription that ended last, when it ended
     * by {@code endedBy} and no subscription of the organization is linked and not ended since: whose grace is over.
     */
    List<MarketplaceSubscription> graceOver(Instant endedBy) {
        return jdbc.sql("""
                        SELECT DISTINCT ON (s.organization_id) s.* FROM marketplace_subscriptions s
                        WHERE s.state = 'ENDED'
                          AND NOT EXISTS (SELECT 1 FROM marketplace_subscriptions current
                                          WHERE current.organization_id = s.organization_id
                                            AND (current.state <> 'ENDED' OR current.ended_at > ?))
                          AND EXISTS (SELECT 1 FROM instances i WHERE i.organization_id = s.organization_id
                                        AND i.state NOT IN ('DELETING', 'DELETED'))
                        ORDER BY s.organization_id, s.ended_at DESC
                        """)
                .param(Timestamp.from(endedBy)).query(MarketplaceSubscriptions::row).list();
    }

    private static MarketplaceSubscription row(ResultSet rs, int n) throws SQLException {
        return new MarketplaceSubscription(rs.getObject("id", UUID.class), rs.getObject("organization_id", UUID.class),
                rs.getString("product_code"), rs.getString("customer_aws_account_id"), rs.getString("license_arn"),
                rs.getString("customer_identifier"), SubscriptionState.valueOf(rs.getString("state")),
                instant(rs, "state_event_at"), rs.getObject("entitled_aku", Integer.class),
                instant(rs, "entitlement_read_at"), instant(rs, "ended_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp at = rs.getTimestamp(column);
        return at == null ? null : at.toInstant();
    }
}

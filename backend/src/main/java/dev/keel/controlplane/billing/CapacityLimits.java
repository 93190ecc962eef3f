package dev.keel.controlplane.billing;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.keel.controlplane.billing.Allowance.Subscription;

/**
 * The one place that decides whether an organization may run the capacity it asks for (a create, a scale, and their
 * plans), before any cloud call and before an operation is queued: its AWS Marketplace subscription (an ending one
 * allows no growth, a contract's {@code aku} entitlement caps the organization's total), the trial when it has none,
 * and the guardrails its admins set. A refusal is the problem the API answers, on the request field that asks.
 */
@Service
public class CapacityLimits {

    private final JdbcClient jdbc;
    private final MarketplaceSubscriptions subscriptions;
    private final Budgets budgets;
    private final CapacityLedger ledger;
    private final Trial trial;
    private final Clock clock;

    CapacityLimits(JdbcClient jdbc, MarketplaceSubscriptions subscriptions, Budgets budgets, CapacityLedger ledger,
                   Clock clock,
                   @Value("${keel.billing.trial.aku-hours}") int trialAkuHours,
                   @Value("${keel.billing.trial.max-aku}") int trialMaxAku) {
        this.jdbc = jdbc;
        this.subscriptions = subscriptions;
        this.budgets = budgets;
        this.ledger = ledger;
        this.clock = clock;
        this.trial = new Trial(trialAkuHours, trialMaxAku);
    }

    /**
     * Refuses running {@code aku} on the instance ({@code instanceId} null: a new one), naming {@code field}. A check
     * ahead of the cloud reads; the change is checked again with {@link #checkLocked} when it is recorded.
     */
    public void check(UUID organizationId, UUID instanceId, String field, int aku) {
        allowance(organizationId, instanceId).refusal(field, aku).ifPresent(refusal -> {
            throw refusal;
        });
    }

    /**
     * {@link #check} under the organization's lock, in the transaction that records the change: two requests racing
     * for the last of a limit are judged one after the other, so only one of them gets it.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void checkLocked(UUID organizationId, UUID instanceId, String field, int aku) {
        jdbc.sql("SELECT id FROM organizations WHERE id = ? FOR UPDATE").param(organizationId).query(UUID.class).single();
        check(organizationId, instanceId, field, aku);
    }

    /** The figures the organization's limits are judged on now, for the instance ({@code instanceId} null: a new one). */
    Allowance allowance(UUID organizationId, UUID instanceId) {
        Instant now = clock.instant();
        BillingMonth month = BillingMonth.of(now);
        Subscription subscription = subscription(organizationId);
        int current = instanceId == null ? 0 : jdbc.sql("SELECT aku FROM instances WHERE id = ? AND organization_id = ?")
                .params(instanceId, organizationId).query(Integer.class).optional().orElse(0);
        int others = jdbc.sql("""
                        SELECT coalesce(sum(aku), 0) FROM instances
                        WHERE organization_id = ? AND state <> 'DELETED' AND id IS DISTINCT FROM ?::uuid
                        """)
                .params(organizationId, instanceId).query(Integer.class).single();
        double trialUsed = subscription == null ? ledger.akuHours(organizationId, Instant.EPOCH, now) : 0;
        return new Allowance(subscription, budgets.of(organizationId), trial, trialUsed,
                ledger.akuHours(organizationId, month.from(), now), month.hoursLeft(now), others, current);
    }

    /** The subscription that is not over, else the latest that is: an organization that had one has no trial. */
    private Subscription subscription(UUID organizationId) {
        return subscriptions.ofOrganization(organizationId)
                .map(s -> new Subscription(s.state().name(), s.entitledAku()))
                .orElse(null);
    }
}

package dev.keel.controlplane.billing;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.marketplace.agreements.AgreementEvent;
import dev.keel.marketplace.agreements.ReadMessage;
import dev.keel.marketplace.entitlements.EntitlementFilter;
import dev.keel.marketplace.entitlements.Entitlement;
import dev.keel.marketplace.entitlements.Entitlements;

/**
 * Brings the organizations' subscriptions up to what AWS Marketplace says of their agreements: records each event
 * read from the queue once, applies the recorded ones to their linked subscription by {@link SubscriptionLifecycle}'s
 * rule, and reads entitlements again where a licence changed or a subscription was linked. GetEntitlements is
 * called outside any transaction; what it said is stored afterwards.
 */
@Service
class SubscriptionAgreements {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionAgreements.class);
    /** Who the audit log says changed a subscription. */
    static final String COMPONENT = "keel-marketplace";
    /** At most this many events or entitlement reads a pass: the next pass takes the rest. */
    private static final int BATCH = 200;

    private final AgreementEventLog events;
    private final MarketplaceSubscriptions subscriptions;
    private final Entitlements entitlements;
    private final MarketplaceConfig.Listing listing;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;

    SubscriptionAgreements(AgreementEventLog events, MarketplaceSubscriptions subscriptions, Entitlements entitlements,
                           MarketplaceConfig.Listing listing, AuditLog audit, TransactionTemplate transactions,
                           Clock clock) {
        this.events = events;
        this.subscriptions = subscriptions;
        this.entitlements = entitlements;
        this.listing = listing;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Records what was read from the queue, in one transaction: after it commits the messages may be deleted. */
    void record(List<ReadMessage> messages) {
        transactions.executeWithoutResult(tx -> {
            for (ReadMessage message : messages) {
                switch (message) {
                    case ReadMessage.Event read -> {
                        if (!events.record(read.event())) {
                            log.debug("Agreement event {} was delivered again", read.event().id());
                        }
                    }
                    case ReadMessage.Unknown unknown -> {
                        log.warn("Kept queue message {} aside, it is no agreement event Keel acts on: {}",
                                unknown.messageId(), unknown.reason());
                        events.recordUnknown(unknown.messageId(), unknown.body(), unknown.reason());
                    }
                }
            }
        });
    }

    /**
     * Applies the recorded events whose subscription is linked, then reads the entitlements never read. True when
     * no such event is left to apply.
     */
    boolean applyWaiting() {
        boolean applied = applyWaitingEvents(null);
        for (UUID unread : subscriptions.entitlementUnread(listing.productCode(), BATCH)) {
            readEntitlement(unread, null);
        }
        return applied;
    }

    /**
     * Applies the recorded events whose subscription is linked; only {@code subscriptionId}'s when not null. True
     * when every one was applied (none failed, and none was left for the next pass).
     */
    private boolean applyWaitingEvents(UUID subscriptionId) {
        List<AgreementEventLog.Waiting> batch = events.waiting(listing.productCode(), subscriptionId, BATCH);
        boolean applied = batch.size() < BATCH;
        for (AgreementEventLog.Waiting waiting : batch) {
            try {
                apply(waiting.event(), waiting.subscriptionId());
            } catch (RuntimeException e) {
                applied = false;
                log.warn("Applying agreement event {} to subscription {} failed; the next pass tries again: {}",
                        waiting.event().id(), waiting.subscriptionId(), e.toString());
            }
        }
        return applied;
    }

    /**
     * A subscription was linked: the events that waited for it apply, and its entitlement is read — its own only,
     * as this runs in the request that linked it; the queue's poller does everyone else's.
     */
    @EventListener
    void linked(SubscriptionLinked linked) {
        try {
            applyWaitingEvents(linked.subscriptionId());
            readEntitlement(linked.subscriptionId(), null);
        } catch (RuntimeException e) {
            log.warn("Applying the agreement events of newly linked subscription {} failed; the queue's poller tries "
                    + "again: {}", linked.subscriptionId(), e.toString());
        }
    }

    private void apply(AgreementEvent event, UUID subscriptionId) {
        if (event.kind() == AgreementEvent.Kind.ENTITLEMENT_CHANGED) {
            readEntitlement(subscriptionId, event.id());
            return;
        }
        transactions.executeWithoutResult(tx -> {
            MarketplaceSubscription before = subscriptions.lock(subscriptionId);
            Optional<SubscriptionLifecycle.Standing> next =
                    SubscriptionLifecycle.apply(before.standing(), event.kind(), event.occurredAt());
            if (!events.applied(event.id(), subscriptionId, next.isPresent())) {
                return;
            }
            next.ifPresent(standing -> {
                subscriptions.moveTo(subscriptionId, standing);
                audit.recordSystem(before.organizationId(), COMPONENT, "subscription." + standing.state().name()
                                .toLowerCase(Locale.ROOT), "subscription", subscriptionId,
                        Map.of("state", before.state(), "stateEventAt", before.stateEventAt()),
                        Map.of("state", standing.state(), "stateEventAt", standing.stateEventAt(),
                                "event", event.id(), "eventKind", event.kind()));
            });
        });
    }

    /**
     * Reads the subscription's entitlement (outside any transaction) and stores it; with {@code eventId}, the
     * entitlement event it answers is marked applied with it, so a failed read leaves the event for the next pass.
     */
    private void readEntitlement(UUID subscriptionId, String eventId) {
        MarketplaceSubscription subscription = subscriptions.get(subscriptionId);
        Entitlement entitlement;
        try {
            entitlement = entitlements.read(subscription.productCode(),
                    EntitlementFilter.of(subscription.licenseArn(), subscription.customerIdentifier()));
        } catch (RuntimeException e) {
            log.warn("Reading the entitlement of subscription {} failed; the next pass tries again: {}", subscriptionId,
                    e.toString());
            return;
        }
        transactions.executeWithoutResult(tx -> {
            MarketplaceSubscription before = subscriptions.lock(subscriptionId);
            if (eventId != null && !events.applied(eventId, subscriptionId, true)) {
                return;
            }
            subscriptions.entitlementRead(subscriptionId, entitlement.maxAku(), clock.instant());
            if (before.entitlementReadAt() == null || !Objects.equals(before.entitledAku(), entitlement.maxAku())) {
                Map<String, Object> after = new LinkedHashMap<>();
                after.put("entitledAku", entitlement.maxAku());
                Map<String, Object> was = new LinkedHashMap<>();
                was.put("entitledAku", before.entitledAku());
                audit.recordSystem(before.organizationId(), COMPONENT, "subscription.entitlement", "subscription",
                        subscriptionId, was, after);
            }
        });
    }
}

package dev.keel.controlplane.billing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

/**
 * Deletes the instances of organizations whose Marketplace subscription ended and whose grace period is over, keeping
 * their data for the retention period. A db-scheduler recurring task: one worker runs it at a time, and what it did is
 * the instances' own state (deleting), so a run after a crash, a restart or another worker's run queues nothing twice.
 * A subscription linked again before the grace ends keeps the instances.
 */
@Configuration
class GracePeriodEnd {

    private static final Logger log = LoggerFactory.getLogger(GracePeriodEnd.class);
    /** Who the audit log and the operations say deleted the instances. */
    static final String ACTOR = "keel-billing";

    private final MarketplaceSubscriptions subscriptions;
    /** Looked up when a run needs it: the instances' operations need the scheduler, which needs this task. */
    private final ObjectProvider<UnpaidInstances> instances;
    private final Duration gracePeriod;
    private final Clock clock;

    GracePeriodEnd(MarketplaceSubscriptions subscriptions, ObjectProvider<UnpaidInstances> instances,
                   @Value("${keel.marketplace.grace-period}") Duration gracePeriod, Clock clock) {
        this.subscriptions = subscriptions;
        this.instances = instances;
        this.gracePeriod = gracePeriod;
        this.clock = clock;
    }

    @Bean
    RecurringTask<Void> endGracePeriods(@Value("${keel.marketplace.grace-check:5m}") Duration interval) {
        return Tasks.recurring("end-grace-periods", FixedDelay.of(interval))
                .execute((instance, context) -> deleteUnpaidBy(clock.instant()));
    }

    /** Deletes the instances of each organization whose grace ended by {@code now}; one failure is retried next run. */
    void deleteUnpaidBy(Instant now) {
        for (MarketplaceSubscription ended : subscriptions.graceOver(now.minus(gracePeriod))) {
            Instant graceEndedAt = ended.endedAt().plus(gracePeriod);
            String reason = "Marketplace subscription " + ended.id() + " (" + ended.productCode() + ") ended at "
                    + ended.endedAt() + "; its grace period ended at " + graceEndedAt
                    + " without a new subscription. The data is kept for the retention period.";
            try {
                List<UUID> deleted = instances.getObject().deleteAll(ended.organizationId(), ended.endedAt(), ACTOR, reason);
                if (!deleted.isEmpty()) {
                    log.info("Deleting {} instances of organization {}: {}", deleted.size(), ended.organizationId(),
                            reason);
                }
            } catch (RuntimeException e) {
                log.warn("Deleting the instances of organization {} after its grace period failed; the next run tries "
                        + "again: {}", ended.organizationId(), e.toString());
            }
        }
    }
}

package dev.keel.controlplane.billing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

import dev.keel.marketplace.metering.MeteringOutcome;
import dev.keel.marketplace.metering.UsageMeter;
import dev.keel.marketplace.metering.UsageRecord;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Meters every billable subscription's AKU-hours to AWS Marketplace, each hour exactly once. A db-scheduler recurring
 * task (one worker of any backend process at a time) that, every few minutes, first writes each hour that has ended
 * into the metering ledger, in its own transaction, then claims the records to send (the claim commits before AWS
 * is called, and no call runs inside a transaction), sends them with BatchMeterUsage and records each answer.
 * A process killed at any point leaves either no record (the next run writes it), a claimed one (its claim lapses
 * and it is sent again: AWS answers an identical record with the earlier result) or a settled one.
 */
@Configuration
class MeteringRun {

    /** The listing's usage dimension: whole AKU-hours per hour. */
    static final String DIMENSION = "aku_hours";
    /** AWS accepts a usage record for less than 6 hours after its timestamp (the start of its hour). */
    static final Duration AWS_WINDOW = Duration.ofHours(6);
    /** How far back a run writes hours the ledger lacks (a control plane down longer loses nothing silently). */
    static final Duration BACKFILL = Duration.ofDays(7);
    static final String EXPIRED = "The hour is more than 6 hours old: AWS Marketplace no longer accepts it";
    private static final Duration FIRST_RETRY = Duration.ofSeconds(30);
    private static final Duration LONGEST_RETRY = Duration.ofMinutes(30);
    /** A run sends at most this many claims of a batch each, so it stays short; the next run sends the rest. */
    private static final int MAX_BATCHES = 40;

    private static final Logger log = LoggerFactory.getLogger(MeteringRun.class);

    private final MeteringLedger ledger;
    private final CapacityLedger capacity;
    private final UsageMeter meter;
    private final TransactionTemplate transactions;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Duration claimTimeout;

    MeteringRun(MeteringLedger ledger, CapacityLedger capacity, UsageMeter meter, TransactionTemplate transactions,
                Clock clock, MeterRegistry meters,
                @Value("${keel.billing.metering.claim-timeout}") Duration claimTimeout) {
        this.ledger = ledger;
        this.capacity = capacity;
        this.meter = meter;
        this.transactions = transactions;
        this.clock = clock;
        this.meters = meters;
        this.claimTimeout = claimTimeout;
    }

    @Bean
    RecurringTask<Void> meterUsage(@Value("${keel.billing.metering.interval}") Duration interval) {
        return Tasks.recurring("meter-usage", FixedDelay.of(interval)).execute((instance, context) -> run());
    }

    void run() {
        Instant now = clock.instant();
        Instant sendableAfter = now.minus(AWS_WINDOW);
        for (MeteringLedger.Billable subscription : ledger.billable(DIMENSION, now.minus(BACKFILL))) {
            write(subscription, now, sendableAfter);
        }
        for (MeteringRecord expired : ledger.expire(sendableAfter, EXPIRED, now)) {
            lost(expired.subscriptionId(), expired.hour(), expired.quantity());
        }
        send();
    }

    /** Writes the subscription's ended hours that the ledger lacks, in one transaction. */
    private void write(MeteringLedger.Billable subscription, Instant now, Instant sendableAfter) {
        Instant backfill = now.minus(BACKFILL);
        Instant first = subscription.lastHour() != null ? subscription.lastHour().plus(Duration.ofHours(1))
                : (subscription.since().isAfter(backfill) ? subscription.since() : backfill).truncatedTo(ChronoUnit.HOURS);
        // A running subscription's hours count once they are over; an ended one's last hour right away, up to its end.
        Instant end = subscription.endedAt() != null ? subscription.endedAt() : now.truncatedTo(ChronoUnit.HOURS);
        if (!first.isBefore(end)) {
            return;
        }
        List<CapacityLedger.Period> periods = capacity.overlapping(subscription.organizationId(), first, end);
        Map<Instant, Integer> quantities = new LinkedHashMap<>();
        for (Instant hour = first; hour.isBefore(end); hour = hour.plus(Duration.ofHours(1))) {
            quantities.put(hour, HourlyUsage.akuHours(periods, hour, subscription.since(), subscription.endedAt()));
        }
        List<Instant> expired = transactions.execute(tx ->
                ledger.write(subscription, DIMENSION, quantities, sendableAfter, EXPIRED, now));
        expired.forEach(hour -> lost(subscription.id(), hour, quantities.get(hour)));
    }

    private void send() {
        for (int batch = 0; batch < MAX_BATCHES; batch++) {
            Instant now = clock.instant();
            List<MeteringRecord> claimed = ledger.claim(now, now.minus(claimTimeout), UsageMeter.BATCH_LIMIT);
            if (claimed.isEmpty()) {
                return;
            }
            Map<UsageRecord, MeteringRecord> byUsage = new LinkedHashMap<>();
            claimed.forEach(r -> byUsage.put(new UsageRecord(r.customerAwsAccountId(), r.licenseArn(),
                    r.customerIdentifier(), r.dimension(), r.hour(), r.quantity()), r));
            Map<UsageRecord, MeteringOutcome> outcomes = meter.send(List.copyOf(byUsage.keySet()));
            Instant answered = clock.instant();
            transactions.executeWithoutResult(tx -> outcomes.forEach((usage, outcome) ->
                    settle(byUsage.get(usage), outcome, answered)));
        }
    }

    private void settle(MeteringRecord record, MeteringOutcome outcome, Instant now) {
        MeteringRecord.State state = switch (outcome.status()) {
            case ACCEPTED -> MeteringRecord.State.ACCEPTED;
            case DUPLICATE -> MeteringRecord.State.DUPLICATE;
            case FAILED -> MeteringRecord.State.FAILED;
            case CUSTOMER_NOT_SUBSCRIBED, RETRY -> MeteringRecord.State.PENDING;
        };
        Instant due = state == MeteringRecord.State.PENDING ? now.plus(backoff(record.attempts())) : now;
        if (!ledger.settle(record, state, outcome.meteringRecordId(), outcome.message(), due, now)) {
            return; // the claim lapsed and another worker sent the record again: its answer is the one kept
        }
        meters.counter("keel.metering.records", "outcome", state.name().toLowerCase()).increment();
        switch (state) {
            case DUPLICATE -> log.error("AWS Marketplace has a different quantity than {} {} for hour {} of"
                            + " subscription {} (record {}): it was NOT metered again; find out why the hour's usage"
                            + " changed", record.quantity(), record.dimension(), record.hour(), record.subscriptionId(),
                    record.id());
            case FAILED -> log.error("AWS Marketplace refused hour {} of subscription {} (record {}, {} {}): {}",
                    record.hour(), record.subscriptionId(), record.id(), record.quantity(), record.dimension(),
                    outcome.message());
            case PENDING -> log.warn("Hour {} of subscription {} is sent again from {}: {}", record.hour(),
                    record.subscriptionId(), due, outcome.message());
            default -> log.debug("Hour {} of subscription {} metered: {}", record.hour(), record.subscriptionId(),
                    outcome.meteringRecordId());
        }
    }

    /** An hour that will never be billed: said loudly, counted, and kept in the ledger as FAILED. */
    private void lost(UUID subscriptionId, Instant hour, int quantity) {
        meters.counter("keel.metering.records", "outcome", "expired").increment();
        log.error("Hour {} of subscription {} ({} {}) was not metered within AWS Marketplace's 6-hour window and is"
                + " recorded FAILED: it will not be billed", hour, subscriptionId, quantity, DIMENSION);
    }

    static Duration backoff(int attempts) {
        Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(Math.max(attempts - 1, 0), 10));
        return wait.compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait;
    }
}

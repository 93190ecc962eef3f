package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Meters every buyer's AKU-minutes to AWS Marketplace, each hour exactly once. A db-scheduler recurring task (one
 * worker of any backend process at a time) that, every few minutes, first writes into the metering ledger, in its own
 * transaction per buyer, each hour that ended a margin ago and whose agreement events are applied, then claims the
 * records to send (the claim commits before AWS is called, and no call runs inside a transaction), sends them with
 * BatchMeterUsage, several buyers at once, and records each answer. Hours are those of the database's clock, never a
 * process's own. A process killed at any point leaves either no record (the next run writes it), a claimed one (its
 * claim lapses and it is sent again: AWS answers an identical record with the earlier result) or a settled one.
 */
@Configuration
class MeteringRun {

    /** The listing's usage dimension: whole AKU-minutes per hour. */
    static final String DIMENSION = "aku_minutes";
    /** AWS accepts a usage record for less than 6 hours after its timestamp (the start of its hour). */
    static final Duration AWS_WINDOW = Duration.ofHours(6);
    /** How far back a run writes hours the ledger lacks (a control plane down longer loses nothing silently). */
    static final Duration BACKFILL = Duration.ofDays(7);
    static final String EXPIRED = "The hour is more than 6 hours old: AWS Marketplace no longer accepts it";
    static final String UNKNOWN = "The hour went past AWS Marketplace's 6-hour window while it was being sent: AWS may"
            + " have billed it or not; its usage reports say which";
    private static final Duration HOUR = HourlyUsage.HOUR;
    private static final Duration FIRST_RETRY = Duration.ofSeconds(30);
    private static final Duration LONGEST_RETRY = Duration.ofMinutes(30);
    /** Records claimed at once for each sender: four calls' worth. */
    private static final int CLAIMED_PER_SENDER = 4 * UsageMeter.BATCH_LIMIT;
    /** Agreement events applied less recently than this hold hours back for longer than a margin should. */
    private static final Duration EVENTS_LATE = Duration.ofHours(1);

    private static final Logger log = LoggerFactory.getLogger(MeteringRun.class);

    private final MeteringLedger ledger;
    private final CapacityLedger capacity;
    private final AgreementEventLog agreementEvents;
    private final UsageMeter meter;
    private final TransactionTemplate transactions;
    private final DatabaseTime database;
    private final MeterRegistry meters;
    private final Duration claimTimeout;
    private final Duration margin;
    private final int senders;
    private final boolean readsAgreementEvents;

    MeteringRun(MeteringLedger ledger, CapacityLedger capacity, AgreementEventLog agreementEvents, UsageMeter meter,
                TransactionTemplate transactions, DatabaseTime database, MeterRegistry meters,
                @Value("${keel.billing.metering.claim-timeout}") Duration claimTimeout,
                @Value("${keel.billing.metering.margin}") Duration margin,
                @Value("${keel.billing.metering.senders}") int senders,
                @Value("${keel.marketplace.queue-url:}") String agreementQueue) {
        if (senders < 1) {
            throw new IllegalArgumentException("keel.billing.metering.senders must be at least 1, not " + senders);
        }
        this.ledger = ledger;
        this.capacity = capacity;
        this.agreementEvents = agreementEvents;
        this.meter = meter;
        this.transactions = transactions;
        this.database = database;
        this.meters = meters;
        this.claimTimeout = claimTimeout;
        this.margin = margin;
        this.senders = senders;
        this.readsAgreementEvents = !agreementQueue.isBlank();
    }

    @Bean
    RecurringTask<Void> meterUsage(@Value("${keel.billing.metering.interval}") Duration interval) {
        return Tasks.recurring("meter-usage", FixedDelay.of(interval)).execute((instance, context) -> run());
    }

    /** {@code keel_metering_oldest_unsent_age_seconds}: see {@link MeteringLedger#oldestUnsentAge()}. */
    @Bean
    MeterBinder meteringBacklog() {
        return registry -> Gauge.builder("keel.metering.oldest.unsent.age", ledger, MeteringLedger::oldestUnsentAge)
                .baseUnit("seconds")
                .description("How long ago the oldest metering record not yet answered by AWS began (its hour's"
                        + " start); AWS takes a record for less than 6 hours")
                .register(registry);
    }

    void run() {
        Instant now = database.now();
        Instant sendableAfter = now.minus(AWS_WINDOW);
        Instant through = writtenThrough(now);
        for (MeteringLedger.Buyer buyer : ledger.buyers(now.minus(BACKFILL))) {
            write(buyer, through, now, sendableAfter);
        }
        for (MeteringRecord closed : ledger.expire(sendableAfter, EXPIRED, UNKNOWN, now)) {
            if (closed.state() == MeteringRecord.State.UNKNOWN) {
                meters.counter("keel.metering.records", "outcome", "unknown").increment();
                log.warn("Hour {} of subscription {} ({} {}) went past AWS Marketplace's 6-hour window while it was"
                                + " being sent: recorded UNKNOWN, reconcile it with AWS's usage reports", closed.hour(),
                        closed.subscriptionId(), closed.quantity(), closed.dimension());
            } else {
                lost(closed.subscriptionId(), closed.hour(), closed.quantity());
            }
        }
        send();
    }

    /**
     * The end of the hours a run may write: a margin before now, and before the agreement queue was last read to its
     * end (an agreement that ended within an hour is known before the hour is written).
     */
    private Instant writtenThrough(Instant now) {
        Instant known = now;
        if (readsAgreementEvents) {
            Instant drained = agreementEvents.drainedAt();
            if (drained.isBefore(now.minus(EVENTS_LATE))) {
                log.warn("The agreement-event queue was last read to its end at {}: usage after that waits to be"
                        + " metered until it is", drained);
            }
            known = drained.isBefore(now) ? drained : now;
        }
        return known.minus(margin).truncatedTo(ChronoUnit.HOURS);
    }

    /** Writes the buyer's hours before {@code through} that the ledger lacks, in one transaction. */
    private void write(MeteringLedger.Buyer buyer, Instant through, Instant now, Instant sendableAfter) {
        Instant sinceHour = buyer.since().truncatedTo(ChronoUnit.HOURS);
        Instant backfill = now.minus(BACKFILL).truncatedTo(ChronoUnit.HOURS);
        Instant first = buyer.lastHour() != null ? later(buyer.lastHour().plus(HOUR), sinceHour)
                : later(sinceHour, backfill);
        Instant ended = buyer.endedAt();
        Instant end = ended == null ? through : earlier(through, hourEnding(ended));
        if (!first.isBefore(end)) {
            return;
        }
        Map<UUID, List<CapacityLedger.Period>> periods = new HashMap<>();
        for (MeteringLedger.Subscription s : buyer.subscriptions()) {
            periods.computeIfAbsent(s.organizationId(), organization -> capacity.overlapping(organization, first, end));
        }
        List<MeteringLedger.Hour> hours = new ArrayList<>();
        int carry = buyer.carry();
        for (Instant hour = first; hour.isBefore(end); hour = hour.plus(HOUR)) {
            MeteringLedger.Subscription billedTo = buyer.billedIn(hour);
            if (billedTo == null) {
                continue; // between two subscriptions: nothing is billable
            }
            long akuMillis = 0;
            for (var organization : periods.entrySet()) {
                akuMillis += HourlyUsage.akuMillis(organization.getValue(), hour, buyer.windows(organization.getKey()));
            }
            HourlyUsage.AkuMinutes usage = HourlyUsage.akuMinutes(akuMillis, carry);
            carry = usage.carry();
            hours.add(new MeteringLedger.Hour(hour, billedTo, usage.quantity(), usage.carry()));
        }
        List<MeteringLedger.Hour> expired = transactions.execute(tx ->
                ledger.write(DIMENSION, hours, sendableAfter, EXPIRED, now));
        expired.forEach(hour -> lost(hour.billedTo().id(), hour.hour(), hour.quantity()));
    }

    /**
     * Sends what is due, a claim at a time until nothing is (or nothing could be sent). A claim's records are sent in
     * lanes, one sender each, a buyer's records in one lane in the order of their hours; every lane ends within three
     * quarters of the claim timeout from the claim (what it could not send goes back unsent), so the answers are
     * recorded before the claim lapses and no other worker sends a record that is still being sent.
     */
    private void send() {
        while (true) {
            long claiming = System.nanoTime();
            Instant now = database.now();
            List<MeteringRecord> claimed = ledger.claim(now, now.minus(claimTimeout), senders * CLAIMED_PER_SENDER);
            if (claimed.isEmpty()) {
                return;
            }
            Duration within = claimTimeout.multipliedBy(3).dividedBy(4).minusNanos(System.nanoTime() - claiming);
            List<Callable<Integer>> lanes = lanes(claimed).stream()
                    .map(lane -> (Callable<Integer>) () -> send(lane, within)).toList();
            int sent = 0;
            try (ExecutorService pool = Executors.newFixedThreadPool(lanes.size(),
                    Thread.ofPlatform().name("metering-sender-", 0).factory())) {
                for (Future<Integer> lane : pool.invokeAll(lanes)) {
                    sent += lane.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while sending metering records", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException failure ? failure
                        : new IllegalStateException("Sending metering records failed", e.getCause());
            }
            if (sent == 0) {
                return;
            }
        }
    }

    /** The claimed records by buyer, in the order of their hours, dealt to at most {@link #senders} lanes. */
    private List<List<MeteringRecord>> lanes(List<MeteringRecord> claimed) {
        Map<String, List<MeteringRecord>> byBuyer = new LinkedHashMap<>();
        claimed.stream().sorted(Comparator.comparing(MeteringRecord::hour).thenComparing(MeteringRecord::id))
                .forEach(r -> byBuyer.computeIfAbsent(r.customerAwsAccountId(), b -> new ArrayList<>()).add(r));
        List<List<MeteringRecord>> lanes = new ArrayList<>();
        int lane = 0;
        for (List<MeteringRecord> buyer : byBuyer.values()) {
            if (lanes.size() < senders) {
                lanes.add(new ArrayList<>());
            }
            lanes.get(lane).addAll(buyer);
            lane = (lane + 1) % senders;
        }
        return lanes;
    }

    /** Sends the lane's records and records the answers; returns how many went out. */
    private int send(List<MeteringRecord> lane, Duration within) {
        Map<UsageRecord, MeteringRecord> byUsage = new LinkedHashMap<>();
        lane.forEach(r -> byUsage.put(new UsageRecord(r.customerAwsAccountId(), r.licenseArn(),
                r.customerIdentifier(), r.dimension(), r.hour(), r.quantity()), r));
        Map<UsageRecord, MeteringOutcome> outcomes = meter.send(List.copyOf(byUsage.keySet()), within);
        Instant answered = database.now();
        transactions.executeWithoutResult(tx -> outcomes.forEach((usage, outcome) ->
                settle(byUsage.get(usage), outcome, answered)));
        return (int) outcomes.values().stream().filter(o -> o.status() != MeteringOutcome.Status.UNSENT).count();
    }

    private void settle(MeteringRecord record, MeteringOutcome outcome, Instant now) {
        Instant retryAt = now.plus(backoff(record.attempts()));
        String message = outcome.message();
        Optional<MeteringRecord.State> settled = switch (outcome.status()) {
            case ACCEPTED -> settled(record, MeteringRecord.State.ACCEPTED, outcome.meteringRecordId(), null, now, now);
            case DUPLICATE -> settled(record, MeteringRecord.State.DUPLICATE, null, message, now, now);
            case FAILED -> settled(record, MeteringRecord.State.FAILED, null, message, now, now);
            case RETRY -> settled(record, MeteringRecord.State.PENDING, null, message, retryAt, now);
            case CUSTOMER_NOT_SUBSCRIBED -> ledger.notSubscribed(record, message, retryAt, now);
            case UNSENT -> {
                ledger.release(record, now);
                yield Optional.empty();
            }
        };
        // Empty: the claim lapsed and another worker sent the record again (its answer is the one kept), or the
        // record was not sent at all.
        settled.ifPresent(state -> {
            meters.counter("keel.metering.records", "outcome", state.name().toLowerCase()).increment();
            switch (state) {
                case DUPLICATE -> log.error("AWS Marketplace has a different quantity than {} {} for hour {} of"
                                + " subscription {} (record {}): it was NOT metered again; find out why the hour's"
                                + " usage changed", record.quantity(), record.dimension(), record.hour(),
                        record.subscriptionId(), record.id());
                case FAILED -> log.error("AWS Marketplace refused hour {} of subscription {} (record {}, {} {}): {}",
                        record.hour(), record.subscriptionId(), record.id(), record.quantity(), record.dimension(),
                        message);
                case PENDING -> log.warn("Hour {} of subscription {} is sent again from {}: {}", record.hour(),
                        record.subscriptionId(), retryAt, message);
                case NOT_SUBSCRIBED -> log.info("AWS Marketplace says the buyer of ended subscription {} is not"
                        + " subscribed: hour {} is not billed, as the agreement's end says", record.subscriptionId(),
                        record.hour());
                default -> log.debug("Hour {} of subscription {} metered: {}", record.hour(), record.subscriptionId(),
                        outcome.meteringRecordId());
            }
        });
    }

    private Optional<MeteringRecord.State> settled(MeteringRecord record, MeteringRecord.State state,
                                                   String meteringRecordId, String error, Instant dueAt, Instant now) {
        return ledger.settle(record, state, meteringRecordId, error, dueAt, now) ? Optional.of(state)
                : Optional.empty();
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

    /** The end of the hour {@code at} falls in, or {@code at} itself when it is an hour's start. */
    private static Instant hourEnding(Instant at) {
        Instant start = at.truncatedTo(ChronoUnit.HOURS);
        return start.equals(at) ? at : start.plus(HOUR);
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}

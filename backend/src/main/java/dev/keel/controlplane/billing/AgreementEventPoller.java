package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.agreements.AgreementQueue;
import dev.keel.marketplace.agreements.ReadMessage;

/**
 * Reads the agreement-event queue a few seconds apart: a db-scheduler recurring task, so one worker of all backend
 * processes reads at a time. Each batch is recorded, then deleted from the queue, then applied; a crash between any
 * two steps reads the batch again, and the events' ids make that harmless. A run that reads the queue to its end and
 * applies everything says so ({@link AgreementEventLog#drained}): metering writes an hour only once that happened
 * after the hour. Off without a queue ({@code keel.marketplace.queue-url} empty).
 */
@Configuration
@ConditionalOnExpression("!'${keel.marketplace.queue-url:}'.isBlank()")
class AgreementEventPoller {

    /** Batches a run reads at most before it applies them: a run's length stays bounded, the next run goes on. */
    private static final int BATCHES_PER_RUN = 10;

    @Bean
    AgreementQueue agreementQueue(MarketplaceClients clients, @Value("${keel.marketplace.queue-url}") String queueUrl,
                                  @Value("${keel.marketplace.queue-long-poll:2s}") Duration longPoll) {
        return new AgreementQueue(clients.sqs(), queueUrl, longPoll);
    }

    @Bean
    RecurringTask<Void> readAgreementEvents(AgreementQueue queue, SubscriptionAgreements agreements,
                                            AgreementEventLog events, DatabaseTime database,
                                            @Value("${keel.marketplace.queue-poll-interval:5s}") Duration interval) {
        return Tasks.recurring("read-agreement-events", FixedDelay.of(interval))
                .execute((instance, context) -> {
                    Instant readToEndFrom = null;
                    for (int batch = 0; batch < BATCHES_PER_RUN && readToEndFrom == null; batch++) {
                        Instant readFrom = database.now();
                        List<ReadMessage> read = queue.receive();
                        if (read.isEmpty()) {
                            readToEndFrom = readFrom;
                        } else {
                            agreements.record(read);
                            queue.acknowledge(read);
                        }
                    }
                    if (agreements.applyWaiting() && readToEndFrom != null) {
                        events.drained(readToEndFrom);
                    }
                });
    }
}

package dev.keel.controlplane.billing;

import java.time.Duration;
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
 * two steps reads the batch again, and the events' ids make that harmless. Off without a queue
 * ({@code keel.marketplace.queue-url} empty).
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
                                            @Value("${keel.marketplace.queue-poll-interval:5s}") Duration interval) {
        return Tasks.recurring("read-agreement-events", FixedDelay.of(interval))
                .execute((instance, context) -> {
                    for (int batch = 0; batch < BATCHES_PER_RUN; batch++) {
                        List<ReadMessage> read = queue.receive();
                        if (read.isEmpty()) {
                            break;
                        }
                        agreements.record(read);
                        queue.acknowledge(read);
                    }
                    agreements.applyWaiting();
                });
    }
}

package dev.keel.controlplane.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

/** Recurring work on metrics, run by one worker at a time through db-scheduler. */
@Configuration
class MetricsJobs {

    @Bean
    RecurringTask<Void> rollUpMetrics(MetricsStore store, Clock clock) {
        return Tasks.recurring("roll-up-metrics", FixedDelay.ofMinutes(1))
                .execute((instance, context) -> {
                    Instant now = clock.instant();
                    store.rollUp(MetricsStore.RAW, MetricsStore.MINUTE, now);
                    store.rollUp(MetricsStore.MINUTE, MetricsStore.HOUR, now);
                    store.dropOlderThan(MetricsStore.RAW, now.minus(Retention.RAW));
                    store.dropOlderThan(MetricsStore.MINUTE, now.minus(Retention.MINUTES));
                    store.dropOlderThan(MetricsStore.HOUR, now.minus(Retention.HOURS));
                });
    }

    /** Health is resolved when the task runs: the scheduler is built before the features it serves. */
    @Bean
    RecurringTask<Void> evaluateBrokerHealth(ObjectProvider<BrokerHealth> health,
                                             @Value("${keel.health.interval:5s}") Duration interval) {
        return Tasks.recurring("evaluate-broker-health", FixedDelay.of(interval))
                .execute((instance, context) -> health.getObject().evaluateAll());
    }
}

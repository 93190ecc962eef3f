package dev.keel.controlplane.instances;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningDriver;

/**
 * Deletes the data buckets that deletes kept, once their retention is over. A db-scheduler recurring task: one worker
 * of any backend process runs it at a time, and a run that dies mid-delete leaves the bucket recorded
 * ({@code data_retained_until}) for the next run, which deletes what is left (deleting a bucket already gone changes
 * nothing). The cloud calls run outside any transaction; only then is the bucket recorded as gone, and audited.
 */
@Configuration
class RetainedDataPurge {

    private static final Logger log = LoggerFactory.getLogger(RetainedDataPurge.class);
    /** Who the audit log says deleted the data. */
    static final String PURGER = "keel-retention";
    /** At most this many buckets a run: a run's length stays bounded, the next run takes the rest. */
    private static final int BATCH = 50;

    private final InstanceRepository repository;
    private final ProvisioningDriver driver;
    private final ProvisioningTargets targets;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;

    RetainedDataPurge(InstanceRepository repository, ProvisioningDriver driver, ProvisioningTargets targets,
                      AuditLog audit, TransactionTemplate transactions, Clock clock) {
        this.repository = repository;
        this.driver = driver;
        this.targets = targets;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    @Bean
    RecurringTask<Void> purgeRetainedData(@Value("${keel.instances.data-retention-check:5m}") Duration interval) {
        return Tasks.recurring("purge-retained-data", FixedDelay.of(interval))
                .execute((instance, context) -> purgeEndedBy(clock.instant()));
    }

    /** Deletes the kept data whose retention ended by {@code now}; one failure is logged and retried next run. */
    void purgeEndedBy(Instant now) {
        for (Instance instance : repository.retentionEnded(now, BATCH)) {
            try {
                driver.deleteRetainedData(targets.of(instance));
                transactions.executeWithoutResult(tx -> {
                    if (repository.dataDeleted(instance.id(), instance.dataRetainedUntil())) {
                        repository.updateInventory(instance.id(), Inventory.EMPTY);
                        audit.recordSystem(instance.organizationId(), PURGER, "instance.delete-data", "instance",
                                instance.id(), Map.of("dataRetainedUntil", instance.dataRetainedUntil()), null);
                    }
                });
                log.info("Deleted the kept data of instance {}: its retention ended at {}", instance.id(),
                        instance.dataRetainedUntil());
            } catch (RuntimeException e) {
                log.warn("Deleting the kept data of instance {} failed; the next run tries again: {}", instance.id(),
                        e.toString());
            }
        }
    }
}

package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.billing.UnpaidInstances;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;

/** Billing's deletes of an unpaid organization's instances, each through {@link Instances#deleteUnpaid}. */
@Component
class UnpaidInstanceDeletion implements UnpaidInstances {

    private static final Logger log = LoggerFactory.getLogger(UnpaidInstanceDeletion.class);

    private final InstanceRepository repository;
    private final Instances instances;

    UnpaidInstanceDeletion(InstanceRepository repository, Instances instances) {
        this.repository = repository;
        this.instances = instances;
    }

    @Override
    public List<UUID> deleteAll(UUID organizationId, Instant since, String actor, String reason) {
        List<UUID> queued = new ArrayList<>();
        for (UUID id : repository.notDeletedBy(organizationId, actor, since)) {
            try {
                instances.deleteUnpaid(id, actor, reason).ifPresent(operation -> queued.add(id));
            } catch (ApiException e) {
                if (e.type() != ProblemType.OPERATION_IN_PROGRESS) {
                    throw e;
                }
                // Its create, change or repair finishes first; the next call deletes it.
                log.info("Instance {} has an operation in progress; its delete waits for the next run", id);
            }
        }
        return queued;
    }
}

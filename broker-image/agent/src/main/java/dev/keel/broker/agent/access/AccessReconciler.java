package dev.keel.broker.agent.access;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of access reconciliation: pulls the desired access from the control plane, applies it through the
 * Kafka Admin API — SCRAM users ({@link ScramUsers}), ACLs ({@link AclBindings}), topic changes
 * ({@link TopicChanges}) — reads the topic inventory ({@link TopicInventory}) and posts the report. Desired state
 * wins: a user or ACL removed behind the product's back is noticed by the next pass (and restored). Every pass
 * starts from what the cluster has, so passes are idempotent and two agents reconciling at once do no harm. A
 * Kafka error fails its item only, never the pass.
 *
 * <p>Users and ACLs are left alone on an instance whose listeners are unauthenticated (no SCRAM listener, no
 * authorizer): only its topics are reconciled.
 */
public final class AccessReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(AccessReconciler.class);

    private final Supplier<Admin> admins;
    private final AccessIngest ingest;
    private final boolean usersAndAcls;

    /**
     * @param admins       connects to this node's broker as a super user; called once per pass, so that a
     *                     renewed certificate is used from the next pass on
     * @param usersAndAcls whether the instance's listeners authenticate (SASL_SSL)
     */
    public AccessReconciler(Supplier<Admin> admins, AccessIngest ingest, boolean usersAndAcls) {
        this.admins = admins;
        this.ingest = ingest;
        this.usersAndAcls = usersAndAcls;
    }

    /**
     * Pulls, applies, reports. Returns the report sent; throws when the control plane could not be asked or told
     * (the next pass starts over).
     */
    public AccessReport pass() throws IOException, InterruptedException {
        DesiredAccess desired = ingest.pull();
        Admin admin = admins.get();
        AccessReport report;
        try {
            report = new AccessReport(desired.delivery(),
                    usersAndAcls ? ScramUsers.apply(admin, desired.users(), desired.removedUsers()) : List.of(),
                    usersAndAcls ? AclBindings.apply(admin, desired.acls(), desired.removedAcls()) : List.of(),
                    TopicChanges.apply(admin, desired.topicChanges()),
                    TopicInventory.read(admin));
        } finally {
            admin.close(Duration.ofSeconds(5));
        }
        ingest.post(report);
        LOG.debug("access reported: {} users, {} ACLs, {} topic changes, {} topics", report.users().size(),
                report.acls().size(), report.topicChanges().size(),
                report.topics() == null ? "unknown" : report.topics().size());
        return report;
    }
}

package dev.keel.controlplane.instances;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Function;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.shared.LockSessions;
import dev.keel.provisioner.NetworkLocks;
import dev.keel.provisioner.ProvisioningTarget;

/**
 * The VPC locks of the provisioner's steps on what a VPC's Keel instances share, across every backend process: a
 * PostgreSQL session-level advisory lock per account, region and VPC, taken on a connection of its own (outside the
 * pool and any transaction, as the step calls AWS while holding it) and given up by closing that connection. A process
 * that dies ends its sessions, and its locks with them. A step does not wait in a session for a lock another holds: it
 * tries again later ({@link NetworkLocks#holding}). Once the lock is held, the VPC's other instances are read
 * again: an instance created or deleted meanwhile is in the records the step decides on.
 */
@Component
class VpcLocks implements NetworkLocks {

    private final LockSessions sessions;
    private final InstanceRepository instances;

    VpcLocks(LockSessions sessions, InstanceRepository instances) {
        this.sessions = sessions;
        this.instances = instances;
    }

    @Override
    public <T> Optional<T> whenFree(ProvisioningTarget target, Function<ProvisioningTarget, T> step) {
        Connection session = lockedIfFree(NetworkLocks.vpcOf(target));
        if (session == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(step.apply(target.withOtherInstancesSubnets(instances.subnetsOfOtherInstances(
                    target.instanceId(), target.account().awsAccountId(), target.region(), target.vpcId()))));
        } finally {
            release(session);
        }
    }

    /** A new session holding the VPC's lock, or null (no session kept) when another session holds it. */
    private Connection lockedIfFree(String vpc) {
        Connection session = null;
        try {
            session = sessions.open();
            try (PreparedStatement lock = session.prepareStatement(
                    "SELECT pg_try_advisory_lock(hashtextextended(?, 0))")) {
                lock.setString(1, "vpc:" + vpc);
                try (ResultSet taken = lock.executeQuery()) {
                    if (taken.next() && taken.getBoolean(1)) {
                        return session;
                    }
                }
            }
            release(session);
            return null;
        } catch (SQLException e) {
            if (session != null) {
                release(session);
            }
            throw new IllegalStateException("The lock of VPC " + vpc + " could not be taken", e);
        }
    }

    private static void release(Connection session) {
        try {
            session.close();
        } catch (SQLException e) {
            // The connection had broken: its session, and the lock with it, ended then.
        }
    }
}

package dev.keel.controlplane.instances;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Function;

import javax.sql.DataSource;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.stereotype.Component;

import dev.keel.provisioner.NetworkLocks;
import dev.keel.provisioner.ProvisioningTarget;

/**
 * The VPC locks of the provisioner's steps on what a VPC's Keel instances share, across every backend process: a
 * PostgreSQL session-level advisory lock per account, region and VPC, taken on a connection of its own (outside the
 * pool and any transaction, as the step calls AWS while holding it) and given up by closing that connection. A process
 * that dies ends its sessions, and its locks with them. Once the lock is held, the VPC's other instances are read
 * again: an instance created or deleted meanwhile is in the records the step decides on.
 */
@Component
class VpcLocks implements NetworkLocks {

    private final DataSource sessions;
    private final InstanceRepository instances;

    VpcLocks(@Value("${spring.datasource.url}") String url, @Value("${spring.datasource.username}") String username,
             @Value("${spring.datasource.password}") String password, InstanceRepository instances) {
        this.sessions = new DriverManagerDataSource(url, username, password);
        this.instances = instances;
    }

    @Override
    public <T> T holding(ProvisioningTarget target, Function<ProvisioningTarget, T> step) {
        Connection session = locked(NetworkLocks.vpcOf(target));
        try {
            return step.apply(target.withOtherInstancesSubnets(instances.subnetsOfOtherInstances(target.instanceId(),
                    target.account().awsAccountId(), target.region(), target.vpcId())));
        } finally {
            release(session);
        }
    }

    /** A new session holding the VPC's lock, once no other session does. */
    private Connection locked(String vpc) {
        Connection session = null;
        try {
            session = sessions.getConnection();
            try (PreparedStatement lock = session.prepareStatement("SELECT pg_advisory_lock(hashtextextended(?, 0))")) {
                lock.setString(1, "vpc:" + vpc);
                lock.execute();
            }
            return session;
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

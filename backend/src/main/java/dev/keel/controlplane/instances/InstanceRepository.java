package dev.keel.controlplane.instances;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.keel.provisioner.ListenerSecurity;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.WalType;
import dev.keel.provisioner.Inventory;
import dev.keel.controlplane.shared.Cursor;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

@Repository
class InstanceRepository {

    private static final TypeReference<List<NetworkSpec.Subnet>> SUBNETS = new TypeReference<>() {
    };
    private static final TypeReference<List<Condition>> CONDITIONS = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;

    InstanceRepository(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    void insert(UUID id, UUID organizationId, UUID cloudAccountId, String name, String region, InstanceSpec spec,
                boolean deletionProtection, Inventory inventory) {
        jdbc.sql("""
                INSERT INTO instances (id, organization_id, cloud_account_id, name, region, state, vpc_id, subnets,
                                       zone_count, wal_type, aku, fsx_throughput_mbps, fsx_count, broker_version,
                                       catalog_version, deletion_protection, s3_gateway_endpoint, listener_security,
                                       inventory)
                VALUES (?, ?, ?, ?, ?, 'CREATING', ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)
                """)
                .params(id, organizationId, cloudAccountId, name, region, spec.network().vpcId(),
                        json.writeValueAsString(spec.network().subnets()), spec.network().zones(),
                        spec.wal().type().name(), spec.aku(), fsxThroughput(spec), fsxCount(spec),
                        spec.brokerVersion(), spec.catalogVersion(), deletionProtection,
                        spec.network().s3GatewayEndpoint().name(), spec.listenerSecurity().name(),
                        json.writeValueAsString(inventory))
                .update();
    }

    Optional<Instance> find(UUID id) {
        return jdbc.sql("SELECT * FROM instances WHERE id = ?").param(id).query(this::instance).optional();
    }

    Optional<Instance> find(UUID organizationId, UUID id) {
        return jdbc.sql("SELECT * FROM instances WHERE organization_id = ? AND id = ?")
                .params(organizationId, id).query(this::instance).optional();
    }

    List<Instance> live() {
        return jdbc.sql("SELECT * FROM instances WHERE state IN ('RUNNING', 'CHANGING') ORDER BY id").query(this::instance).list();
    }

    Optional<Instance> lock(UUID id) {
        return jdbc.sql("SELECT * FROM instances WHERE id = ? FOR UPDATE").param(id).query(this::instance).optional();
    }

    /** Locks the row for a read-modify-write of its spec or state. */
    Optional<Instance> lock(UUID organizationId, UUID id) {
        return jdbc.sql("SELECT * FROM instances WHERE organization_id = ? AND id = ? FOR UPDATE")
                .params(organizationId, id).query(this::instance).optional();
    }

    /** The organization's instances not deleted nor being deleted, whose delete {@code requestedBy} has not asked for since {@code since}. */
    List<UUID> notDeletedBy(UUID organizationId, String requestedBy, Instant since) {
        return jdbc.sql("""
                SELECT id FROM instances i WHERE organization_id = ? AND state NOT IN ('DELETING', 'DELETED')
                AND NOT EXISTS (SELECT 1 FROM operations o WHERE o.instance_id = i.id AND o.type = 'DELETE'
                                  AND o.requested_by = ? AND o.created_at >= ?)
                ORDER BY id
                """).params(organizationId, requestedBy, Timestamp.from(since)).query(UUID.class).list();
    }

    boolean nameTaken(UUID organizationId, String name) {
        return jdbc.sql("SELECT count(*) FROM instances WHERE organization_id = ? AND name = ? AND state <> 'DELETED'")
                .params(organizationId, name).query(Long.class).single() > 0;
    }

    long liveUsing(UUID organizationId, UUID cloudAccountId) {
        return jdbc.sql("""
                SELECT count(*) FROM instances WHERE organization_id = ? AND cloud_account_id = ? AND state <> 'DELETED'
                """).params(organizationId, cloudAccountId).query(Long.class).single();
    }

    /**
     * The subnets of the Keel instances other than {@code instanceId} in the VPC {@code vpcId} of AWS account
     * {@code awsAccountId} that are not deleted, nor have a delete under way (also those being created, and those whose
     * delete is pending and may be cancelled): they share Keel's S3 gateway endpoint there, whichever organization
     * registered the account. A delete that has started gives the endpoint up: it terminates the instance's brokers
     * before it reaches the endpoint, so two instances deleted together do not each keep it for the other.
     */
    Set<String> subnetsOfOtherInstances(UUID instanceId, String awsAccountId, String region, String vpcId) {
        return Set.copyOf(jdbc.sql("""
                SELECT DISTINCT s.subnet ->> 'subnetId' FROM instances i
                JOIN cloud_accounts a ON a.id = i.cloud_account_id
                CROSS JOIN jsonb_array_elements(i.subnets) AS s(subnet)
                WHERE a.aws_account_id = ? AND i.region = ? AND i.vpc_id = ? AND i.id <> ? AND i.state <> 'DELETED'
                  AND NOT EXISTS (SELECT 1 FROM operations o
                                  WHERE o.instance_id = i.id AND o.type = 'DELETE' AND o.state = 'RUNNING')
                """).params(awsAccountId, region, vpcId, instanceId).query(String.class).list());
    }

    /** Deleted instances whose kept data bucket's retention ended before {@code now}, oldest first. */
    List<Instance> retentionEnded(Instant now, int limit) {
        return jdbc.sql("""
                SELECT * FROM instances WHERE data_retained_until <= ? AND state = 'DELETED'
                ORDER BY data_retained_until LIMIT ?
                """).params(Timestamp.from(now), limit).query(this::instance).list();
    }

    void updateDeletionProtection(UUID id, boolean on) {
        jdbc.sql("UPDATE instances SET deletion_protection = ?, updated_at = now() WHERE id = ?").params(on, id).update();
    }

    /** Until when the instance's data bucket is kept after its delete; null: nothing is (or is any longer) kept. */
    void updateDataRetention(UUID id, Instant until) {
        jdbc.sql("UPDATE instances SET data_retained_until = ? WHERE id = ?")
                .params(until == null ? null : Timestamp.from(until), id).update();
    }

    /** Records the kept data bucket as gone, unless its retention was changed since it was read. */
    boolean dataDeleted(UUID id, Instant retainedUntil) {
        return jdbc.sql("UPDATE instances SET data_retained_until = NULL WHERE id = ? AND data_retained_until = ?")
                .params(id, Timestamp.from(retainedUntil)).update() == 1;
    }

    /** Newest first; without a state filter, deleted instances are left out. */
    List<Instance> list(UUID organizationId, InstanceState state, String nameContains, Cursor after, int limit) {
        return Cursor.bind(jdbc.sql("""
                SELECT * FROM instances
                WHERE organization_id = :org
                  AND (CAST(:state AS text) IS NULL AND state <> 'DELETED' OR state = :state)
                  AND (CAST(:name AS text) IS NULL OR strpos(lower(name), lower(:name)) > 0)
                  AND (CAST(:afterTime AS timestamptz) IS NULL OR (created_at, id) < (:afterTime, :afterId))
                ORDER BY created_at DESC, id DESC
                LIMIT :limit
                """), after)
                .param("org", organizationId)
                .param("state", state == null ? null : state.name())
                .param("name", nameContains)
                .param("limit", limit)
                .query(this::instance)
                .list();
    }

    void updateCapacity(UUID id, int aku, FsxSpec fsx, InstanceState state) {
        jdbc.sql("""
                UPDATE instances SET aku = ?, fsx_throughput_mbps = ?, fsx_count = ?, state = ?,
                                     spec_version = spec_version + 1, updated_at = now()
                WHERE id = ?
                """)
                .params(aku, fsx == null ? null : fsx.throughputMBps(), fsx == null ? null : fsx.count(), state.name(), id)
                .update();
    }

    void updateState(UUID id, InstanceState state) {
        jdbc.sql("""
                UPDATE instances SET state = ?, updated_at = now(),
                                     deleted_at = CASE WHEN ? = 'DELETED' THEN now() END
                WHERE id = ?
                """)
                .params(state.name(), state.name(), id)
                .update();
    }

    void updateInventory(UUID id, Inventory inventory) {
        jdbc.sql("UPDATE instances SET inventory = ?::jsonb, updated_at = now() WHERE id = ?")
                .params(json.writeValueAsString(inventory), id)
                .update();
    }

    void updateDrift(UUID id, String drift) {
        jdbc.sql("UPDATE instances SET drift = ?, drift_checked_at = now() WHERE id = ?").params(drift, id).update();
    }

    void checkedWithoutDrift(List<UUID> ids) {
        if (!ids.isEmpty()) {
            jdbc.sql("UPDATE instances SET drift_checked_at = now() WHERE id = ANY(?) AND drift IS NULL")
                    .param(ids.toArray(UUID[]::new)).update();
        }
    }

    Set<UUID> drifted() {
        return Set.copyOf(jdbc.sql("SELECT id FROM instances WHERE state IN ('RUNNING', 'CHANGING') AND drift IS NOT NULL")
                .query(UUID.class).list());
    }

    /** Sets one condition of {@code instance}; writes only when it changes. */
    void setCondition(Instance instance, String type, String status, String reason, String message) {
        List<Condition> conditions = Condition.set(instance.conditions(), type, status, reason, message, Instant.now());
        if (conditions != instance.conditions()) {
            updateConditions(instance.id(), conditions);
        }
    }

    void updateConditions(UUID id, List<Condition> conditions) {
        jdbc.sql("UPDATE instances SET conditions = ?::jsonb, updated_at = now() WHERE id = ?")
                .params(json.writeValueAsString(conditions), id)
                .update();
    }

    private Instance instance(ResultSet rs, int row) throws SQLException {
        Integer fsxThroughput = (Integer) rs.getObject("fsx_throughput_mbps");
        FsxSpec fsx = fsxThroughput == null ? null : new FsxSpec(fsxThroughput, rs.getInt("fsx_count"));
        InstanceSpec spec = new InstanceSpec(
                new NetworkSpec(rs.getString("vpc_id"), json.readValue(rs.getString("subnets"), SUBNETS),
                        S3GatewayEndpointMode.valueOf(rs.getString("s3_gateway_endpoint"))),
                new WalSpec(WalType.valueOf(rs.getString("wal_type"))), rs.getInt("aku"), fsx,
                rs.getString("broker_version"), rs.getInt("catalog_version"),
                ListenerSecurity.valueOf(rs.getString("listener_security")));
        String inventory = rs.getString("inventory");
        return new Instance(rs.getObject("id", UUID.class), rs.getObject("organization_id", UUID.class),
                rs.getObject("cloud_account_id", UUID.class), rs.getString("name"), rs.getString("region"),
                InstanceState.valueOf(rs.getString("state")), spec, rs.getInt("spec_version"),
                "{}".equals(inventory) ? Inventory.EMPTY : json.readValue(inventory, Inventory.class),
                json.readValue(rs.getString("conditions"), CONDITIONS),
                rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
                rs.getBoolean("deletion_protection"), instant(rs.getTimestamp("data_retained_until")));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    private static Integer fsxThroughput(InstanceSpec spec) {
        return spec.fsx() == null ? null : spec.fsx().throughputMBps();
    }

    private static Integer fsxCount(InstanceSpec spec) {
        return spec.fsx() == null ? null : spec.fsx().count();
    }
}

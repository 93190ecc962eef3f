package dev.keel.controlplane.billing;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * When each instance ran with how many AKU. Written in the transaction that records an operation's success, so
 * usage follows what was provisioned, not what was asked for: a scale counts from when it is done. Periods start and
 * end at the database's time ({@code now()}, the transaction's), the clock metering decides hours by, whichever
 * backend process records them.
 */
@Repository
public class CapacityLedger {

    private final JdbcClient jdbc;

    CapacityLedger(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The instance runs with {@code aku} from now: a change of capacity closes the open period. */
    public void running(UUID instanceId, UUID organizationId, int aku) {
        Integer open = jdbc.sql("SELECT aku FROM capacity_periods WHERE instance_id = ? AND ended_at IS NULL FOR UPDATE")
                .param(instanceId).query(Integer.class).optional().orElse(null);
        if (open != null && open == aku) {
            return;
        }
        stopped(instanceId);
        jdbc.sql("INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at) VALUES (?, ?, ?, now())")
                .params(instanceId, organizationId, aku)
                .update();
    }

    /** The instance no longer runs from now (its brokers are gone); nothing changes if it was not running. */
    public void stopped(UUID instanceId) {
        jdbc.sql("UPDATE capacity_periods SET ended_at = now() WHERE instance_id = ? AND ended_at IS NULL")
                .param(instanceId)
                .update();
    }

    /** The organization's periods that overlap {@code [from, to)}, with their instance's name, oldest first. */
    List<Period> overlapping(UUID organizationId, Instant from, Instant to) {
        return jdbc.sql("""
                        SELECT p.instance_id, i.name, p.aku, p.started_at, p.ended_at
                        FROM capacity_periods p JOIN instances i ON i.id = p.instance_id
                        WHERE p.organization_id = ? AND p.started_at < ? AND (p.ended_at IS NULL OR p.ended_at > ?)
                        ORDER BY i.name, p.started_at
                        """)
                .params(organizationId, Timestamp.from(to), Timestamp.from(from))
                .query((rs, n) -> {
                    Timestamp ended = rs.getTimestamp("ended_at");
                    return new Period(rs.getObject("instance_id", UUID.class), rs.getString("name"), rs.getInt("aku"),
                            rs.getTimestamp("started_at").toInstant(), ended == null ? null : ended.toInstant());
                })
                .list();
    }

    /** The organization's AKU-hours over {@code [from, now)}, counted as {@code /billing/usage} counts them. */
    double akuHours(UUID organizationId, Instant from, Instant now) {
        return Usage.of(overlapping(organizationId, from, now), from, now, now).akuHours();
    }

    /** {@code endedAt} null: still running. */
    record Period(UUID instanceId, String instanceName, int aku, Instant startedAt, Instant endedAt) {
    }
}

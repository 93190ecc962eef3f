package dev.keel.controlplane.drains;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The drains asked of broker machines and their progress. The control plane cannot reach brokers: a request waits
 * here until the machine's agent reports, learns of it in the answer, and reports its progress from then on.
 */
@Repository
public class DrainRequests {

    /** A drain's last known progress, and when the machine last reported at all (null: never). */
    public record Progress(String status, Integer partitionsRemaining, String message, Instant lastReportAt) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;

    DrainRequests(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Asks the machine to move its partitions to the brokers {@code drainTo}; asking again is a no-op, unless the last
     * attempt failed: then it is retried.
     */
    public void request(UUID instanceId, String ec2InstanceId, int nodeId, List<Integer> drainTo) {
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.sql("""
                INSERT INTO broker_drains (instance_id, ec2_instance_id, node_id, drain_to, requested_at, status,
                                           updated_at)
                VALUES (?, ?, ?, ?, ?, 'REQUESTED', ?)
                ON CONFLICT (instance_id, ec2_instance_id) DO UPDATE
                SET status = 'REQUESTED', drain_to = excluded.drain_to, requested_at = excluded.requested_at,
                    message = NULL, updated_at = excluded.updated_at
                WHERE broker_drains.status = 'FAILED'
                """)
                .params(instanceId, ec2InstanceId, nodeId, drainTo.toArray(Integer[]::new), now, now)
                .update();
    }

    public Optional<Progress> progress(UUID instanceId, String ec2InstanceId) {
        return jdbc.sql("""
                SELECT d.status, d.partitions_remaining, d.message,
                       (SELECT max(r.reported_at) FROM broker_reports r
                        WHERE r.instance_id = d.instance_id AND r.ec2_instance_id = d.ec2_instance_id) AS last_report_at
                FROM broker_drains d WHERE d.instance_id = ? AND d.ec2_instance_id = ?
                """)
                .params(instanceId, ec2InstanceId)
                .query((rs, n) -> {
                    Timestamp last = rs.getTimestamp("last_report_at");
                    return new Progress(rs.getString("status"), (Integer) rs.getObject("partitions_remaining"),
                            rs.getString("message"), last == null ? null : last.toInstant());
                })
                .optional();
    }

    /**
     * Records the progress a machine reported ({@code status} null when it reported none) and answers the brokers it
     * is to drain to, if it is to drain. A drain that already failed is not asked again until the control plane asks
     * anew.
     */
    public Optional<List<Integer>> onReport(UUID instanceId, String ec2InstanceId, String status,
                                            Integer partitionsRemaining, String message) {
        if (ec2InstanceId == null) {
            return Optional.empty();
        }
        // One statement per report (they arrive every 10 s from every broker): the update answers with the row.
        if (status == null) {
            return jdbc.sql("""
                            SELECT drain_to, status FROM broker_drains WHERE instance_id = ? AND ec2_instance_id = ?
                            """)
                    .params(instanceId, ec2InstanceId)
                    .query(DrainRequests::drainTo).optional().flatMap(to -> to);
        }
        return jdbc.sql("""
                        UPDATE broker_drains SET status = ?, partitions_remaining = ?, message = ?, updated_at = ?
                        WHERE instance_id = ? AND ec2_instance_id = ? AND status <> 'FAILED'
                        RETURNING drain_to, status
                        """)
                .params(status, partitionsRemaining, message, Timestamp.from(clock.instant()), instanceId, ec2InstanceId)
                .query(DrainRequests::drainTo).optional().flatMap(to -> to);
    }

    /** The brokers to drain to, unless the drain has failed: a failed drain is not asked again by itself. */
    private static Optional<List<Integer>> drainTo(ResultSet rs, int row) throws SQLException {
        return "FAILED".equals(rs.getString("status")) ? Optional.empty()
                : Optional.of(Arrays.asList((Integer[]) rs.getArray("drain_to").getArray()));
    }
}

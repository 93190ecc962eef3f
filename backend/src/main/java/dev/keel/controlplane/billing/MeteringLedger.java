package dev.keel.controlplane.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;

/**
 * The metering ledger ({@code metering_records}): every hour's usage is written here before it is sent, once per
 * subscription, dimension and hour, and a record is claimed by one worker at a time before AWS is called.
 */
@Repository
class MeteringLedger {

    private static final RowMapper<MeteringRecord> ROWS = MeteringLedger::record;

    private final JdbcClient jdbc;

    MeteringLedger(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A subscription AWS bills usage to: from when it was linked ({@code since}) until it ended ({@code endedAt},
     * null while it runs). {@code lastHour}: the latest hour already in the ledger, null when none is.
     */
    record Billable(UUID id, UUID organizationId, String customerAwsAccountId, String licenseArn,
                    String customerIdentifier, Instant since, Instant endedAt, Instant lastHour) {
    }

    /** Subscriptions that run now, and those that ended after {@code endedAfter} (their last hours still count). */
    List<Billable> billable(String dimension, Instant endedAfter) {
        return jdbc.sql("""
                        SELECT s.id, s.organization_id, s.customer_aws_account_id, s.license_arn, s.customer_identifier,
                               s.created_at, s.ended_at,
                               (SELECT max(m.hour) FROM metering_records m
                                WHERE m.subscription_id = s.id AND m.dimension = ?) AS last_hour
                        FROM marketplace_subscriptions s
                        WHERE s.state IN ('ACTIVE', 'AMENDED', 'CANCELLING') OR (s.state = 'ENDED' AND s.ended_at > ?)
                        """)
                .params(dimension, Timestamp.from(endedAfter))
                .query((rs, n) -> new Billable(rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class), rs.getString("customer_aws_account_id"),
                        rs.getString("license_arn"), rs.getString("customer_identifier"),
                        instant(rs, "created_at"), instant(rs, "ended_at"), instant(rs, "last_hour")))
                .list();
    }

    /**
     * Writes each hour's quantity unless the hour is already in the ledger (then what is there stays: an hour's
     * record never changes once written). Hours AWS no longer accepts (at or before {@code sendableAfter}) are
     * written FAILED with {@code expiredReason}; returns those.
     */
    List<Instant> write(Billable subscription, String dimension, Map<Instant, Integer> quantities, Instant sendableAfter,
               String expiredReason, Instant now) {
        List<Instant> expiredHours = new ArrayList<>();
        quantities.forEach((hour, quantity) -> {
            boolean expired = !hour.isAfter(sendableAfter);
            int written = jdbc.sql("""
                            INSERT INTO metering_records (id, organization_id, subscription_id, customer_aws_account_id,
                                                          license_arn, customer_identifier, dimension, hour, quantity,
                                                          state, last_error, due_at, created_at, updated_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT (subscription_id, dimension, hour) DO NOTHING
                            """)
                    .params(UUID.randomUUID(), subscription.organizationId(), subscription.id(),
                            subscription.customerAwsAccountId(), subscription.licenseArn(),
                            subscription.customerIdentifier(), dimension, Timestamp.from(hour), quantity,
                            expired ? "FAILED" : "PENDING", expired ? expiredReason : null, Timestamp.from(now),
                            Timestamp.from(now), Timestamp.from(now))
                    .update();
            if (expired && written == 1) {
                expiredHours.add(hour);
            }
        });
        return expiredHours;
    }

    /**
     * Marks FAILED, with {@code reason}, the records still open whose hour AWS no longer accepts; returns them.
     */
    List<MeteringRecord> expire(Instant sendableAfter, String reason, Instant now) {
        return jdbc.sql("""
                        UPDATE metering_records SET state = 'FAILED', last_error = ?, updated_at = ?
                        WHERE state IN ('PENDING', 'SENT') AND hour <= ?
                        RETURNING *
                        """)
                .params(reason, Timestamp.from(now), Timestamp.from(sendableAfter))
                .query(ROWS)
                .list();
    }

    /**
     * Claims up to {@code limit} records to send, committed before AWS is called: PENDING ones that are due, and SENT
     * ones whose claim lapsed (their worker died; AWS answers an identical record again with the earlier result).
     * Rows another worker holds are skipped, so two workers never send the same record at the same time.
     */
    List<MeteringRecord> claim(Instant now, Instant claimedBefore, int limit) {
        return jdbc.sql("""
                        UPDATE metering_records SET state = 'SENT', attempts = attempts + 1, due_at = ?, updated_at = ?
                        WHERE id IN (SELECT id FROM metering_records
                                     WHERE (state = 'PENDING' AND due_at <= ?) OR (state = 'SENT' AND due_at <= ?)
                                     ORDER BY hour, id
                                     LIMIT ?
                                     FOR UPDATE SKIP LOCKED)
                        RETURNING *
                        """)
                .params(Timestamp.from(now), Timestamp.from(now), Timestamp.from(now), Timestamp.from(claimedBefore), limit)
                .query(ROWS)
                .list();
    }

    /**
     * Records what AWS said about a claimed record, unless the claim lapsed and another worker claimed it since.
     * {@code dueAt}: when a record put back to PENDING is sent again.
     */
    boolean settle(MeteringRecord claimed, MeteringRecord.State state, String meteringRecordId, String error,
                   Instant dueAt, Instant now) {
        return jdbc.sql("""
                        UPDATE metering_records
                        SET state = ?, metering_record_id = ?, last_error = ?, due_at = ?, updated_at = ?
                        WHERE id = ? AND state = 'SENT' AND attempts = ?
                        """)
                .params(state.name(), meteringRecordId, error, Timestamp.from(dueAt), Timestamp.from(now),
                        claimed.id(), claimed.attempts())
                .update() == 1;
    }

    /** The organization's records for hours in {@code [from, to)} (either null: unbounded), newest hour first. */
    Page<MeteringRecord> list(UUID organizationId, Instant from, Instant to, Cursor after, int limit) {
        List<MeteringRecord> records = Cursor.bind(jdbc.sql("""
                        SELECT * FROM metering_records
                        WHERE organization_id = :org
                          AND (CAST(:from AS timestamptz) IS NULL OR hour >= :from)
                          AND (CAST(:to AS timestamptz) IS NULL OR hour < :to)
                          AND (CAST(:afterTime AS timestamptz) IS NULL OR (hour, id) < (:afterTime, :afterId))
                        ORDER BY hour DESC, id DESC
                        LIMIT :limit
                        """), after)
                .param("org", organizationId)
                .param("from", from == null ? null : Timestamp.from(from))
                .param("to", to == null ? null : Timestamp.from(to))
                .param("limit", limit + 1)
                .query(ROWS)
                .list();
        return Cursor.page(records, limit, r -> new Cursor(r.hour(), r.id()));
    }

    private static MeteringRecord record(ResultSet rs, int row) throws SQLException {
        return new MeteringRecord(rs.getObject("id", UUID.class), rs.getObject("subscription_id", UUID.class),
                rs.getString("customer_aws_account_id"), rs.getString("license_arn"),
                rs.getString("customer_identifier"), rs.getString("dimension"), instant(rs, "hour"),
                rs.getInt("quantity"), MeteringRecord.State.valueOf(rs.getString("state")),
                rs.getString("metering_record_id"), rs.getInt("attempts"), rs.getString("last_error"),
                instant(rs, "created_at"), instant(rs, "updated_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}

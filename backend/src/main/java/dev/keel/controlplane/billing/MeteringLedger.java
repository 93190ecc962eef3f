package dev.keel.controlplane.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;

/**
 * The metering ledger ({@code metering_records}): every hour's usage is written here before it is sent, once per
 * buyer, dimension and hour (AWS's key), and a record is claimed by one worker at a time before AWS is called.
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
     * null while it runs).
     */
    record Subscription(UUID id, UUID organizationId, String customerAwsAccountId, String licenseArn,
                        String customerIdentifier, Instant since, Instant endedAt) {

        boolean billableIn(Instant hour) {
            return since.isBefore(hour.plus(HourlyUsage.HOUR)) && (endedAt == null || endedAt.isAfter(hour));
        }
    }

    /**
     * A buyer (an AWS account) and its billable subscriptions, oldest first. {@code lastHour}: the buyer's latest
     * hour in the ledger, null when none is; {@code carry}: the AKU-milliseconds that record carries on.
     */
    record Buyer(String customerAwsAccountId, List<Subscription> subscriptions, Instant lastHour, int carry) {

        Instant since() {
            return subscriptions.getFirst().since();
        }

        /** When the last of its subscriptions ended; null while one runs. */
        Instant endedAt() {
            Instant last = null;
            for (Subscription s : subscriptions) {
                if (s.endedAt() == null) {
                    return null;
                }
                last = last == null || s.endedAt().isAfter(last) ? s.endedAt() : last;
            }
            return last;
        }

        /** The subscription an hour is billed to: the latest billable in it (a buyer who re-subscribed); or null. */
        Subscription billedIn(Instant hour) {
            return subscriptions.reversed().stream().filter(s -> s.billableIn(hour)).findFirst().orElse(null);
        }

        /** The billable times of the buyer's subscriptions of {@code organizationId}. */
        List<HourlyUsage.Window> windows(UUID organizationId) {
            return subscriptions.stream().filter(s -> s.organizationId().equals(organizationId))
                    .map(s -> new HourlyUsage.Window(s.since(), s.endedAt())).toList();
        }
    }

    /** One hour of a buyer as the ledger holds it: whole AKU-minutes, and the AKU-milliseconds carried on. */
    record Hour(Instant hour, Subscription billedTo, int quantity, int carry) {
    }

    /**
     * The buyers with subscriptions that run now or ended after {@code endedAfter} (their last hours still count),
     * with those subscriptions only.
     */
    List<Buyer> buyers(Instant endedAfter) {
        record Row(Subscription subscription, Instant lastHour, int carry) {
        }
        List<Row> rows = jdbc.sql("""
                        SELECT s.id, s.organization_id, s.customer_aws_account_id, s.license_arn, s.customer_identifier,
                               s.created_at, s.ended_at, last.hour AS last_hour, last.carry_aku_ms AS carry
                        FROM marketplace_subscriptions s
                        LEFT JOIN LATERAL (SELECT m.hour, m.carry_aku_ms FROM metering_records m
                                           WHERE m.customer_aws_account_id = s.customer_aws_account_id
                                           ORDER BY m.hour DESC LIMIT 1) last ON true
                        WHERE s.state IN ('ACTIVE', 'AMENDED', 'CANCELLING') OR (s.state = 'ENDED' AND s.ended_at > ?)
                        ORDER BY s.customer_aws_account_id, s.created_at, s.id
                        """)
                .param(Timestamp.from(endedAfter))
                .query((rs, n) -> new Row(new Subscription(rs.getObject("id", UUID.class),
                        rs.getObject("organization_id", UUID.class), rs.getString("customer_aws_account_id"),
                        rs.getString("license_arn"), rs.getString("customer_identifier"), instant(rs, "created_at"),
                        instant(rs, "ended_at")), instant(rs, "last_hour"), rs.getInt("carry")))
                .list();
        Map<String, Buyer> buyers = new LinkedHashMap<>();
        for (Row row : rows) {
            buyers.computeIfAbsent(row.subscription().customerAwsAccountId(),
                    account -> new Buyer(account, new ArrayList<>(), row.lastHour(), row.carry()))
                    .subscriptions().add(row.subscription());
        }
        return List.copyOf(buyers.values());
    }

    /**
     * Writes each hour unless the buyer's hour is already in the ledger (then what is there stays: an hour's record
     * never changes once written). Hours AWS no longer accepts (at or before {@code sendableAfter}) are written
     * FAILED with {@code expiredReason}; returns those.
     */
    List<Hour> write(String dimension, List<Hour> hours, Instant sendableAfter, String expiredReason, Instant now) {
        List<Hour> expiredHours = new ArrayList<>();
        for (Hour hour : hours) {
            boolean expired = !hour.hour().isAfter(sendableAfter);
            Subscription to = hour.billedTo();
            int written = jdbc.sql("""
                            INSERT INTO metering_records (id, organization_id, subscription_id, customer_aws_account_id,
                                                          license_arn, customer_identifier, dimension, hour, quantity,
                                                          carry_aku_ms, state, last_error, due_at, created_at,
                                                          updated_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            ON CONFLICT DO NOTHING
                            """)
                    .params(UUID.randomUUID(), to.organizationId(), to.id(), to.customerAwsAccountId(),
                            to.licenseArn(), to.customerIdentifier(), dimension, Timestamp.from(hour.hour()),
                            hour.quantity(), hour.carry(), expired ? "FAILED" : "PENDING",
                            expired ? expiredReason : null, Timestamp.from(now), Timestamp.from(now),
                            Timestamp.from(now))
                    .update();
            if (expired && written == 1) {
                expiredHours.add(hour);
            }
        }
        return expiredHours;
    }

    /**
     * Closes the records still open whose hour AWS no longer accepts, and returns them: PENDING ones FAILED with
     * {@code expiredReason} (never sent, or AWS did not take them), SENT ones UNKNOWN with {@code unknownReason}
     * (a worker was sending them: AWS may have them).
     */
    List<MeteringRecord> expire(Instant sendableAfter, String expiredReason, String unknownReason, Instant now) {
        return jdbc.sql("""
                        UPDATE metering_records
                        SET state = CASE state WHEN 'SENT' THEN 'UNKNOWN' ELSE 'FAILED' END,
                            last_error = CASE state WHEN 'SENT' THEN ? ELSE ? END, updated_at = ?
                        WHERE state IN ('PENDING', 'SENT') AND hour <= ?
                        RETURNING *
                        """)
                .params(unknownReason, expiredReason, Timestamp.from(now), Timestamp.from(sendableAfter))
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

    /**
     * AWS says the buyer is not subscribed: final (NOT_SUBSCRIBED) when the record's subscription has ended, else
     * PENDING again from {@code retryAt} (AWS may not know of the agreement yet). Returns the state recorded, empty
     * when the claim lapsed and another worker claimed the record since.
     */
    Optional<MeteringRecord.State> notSubscribed(MeteringRecord claimed, String error, Instant retryAt, Instant now) {
        return jdbc.sql("""
                        UPDATE metering_records m
                        SET state = CASE WHEN s.state = 'ENDED' THEN 'NOT_SUBSCRIBED' ELSE 'PENDING' END,
                            last_error = ?, updated_at = ?,
                            due_at = CASE WHEN s.state = 'ENDED' THEN CAST(? AS timestamptz)
                                          ELSE CAST(? AS timestamptz) END
                        FROM marketplace_subscriptions s
                        WHERE s.id = m.subscription_id AND m.id = ? AND m.state = 'SENT' AND m.attempts = ?
                        RETURNING m.state
                        """)
                .params(error, Timestamp.from(now), Timestamp.from(now), Timestamp.from(retryAt), claimed.id(),
                        claimed.attempts())
                .query(String.class).optional().map(MeteringRecord.State::valueOf);
    }

    /** Puts a claimed record that was never sent back as it was, due now; false when the claim lapsed meanwhile. */
    boolean release(MeteringRecord claimed, Instant now) {
        return jdbc.sql("""
                        UPDATE metering_records SET state = 'PENDING', attempts = attempts - 1, due_at = ?, updated_at = ?
                        WHERE id = ? AND state = 'SENT' AND attempts = ?
                        """)
                .params(Timestamp.from(now), Timestamp.from(now), claimed.id(), claimed.attempts())
                .update() == 1;
    }

    /**
     * Seconds from the oldest unsent (PENDING or SENT) record's timestamp, the start of its hour, to now (database
     * time); 0 when every record is settled. AWS takes a record for less than 6 hours after its timestamp.
     */
    double oldestUnsentAge() {
        return jdbc.sql("""
                        SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(hour)), 0) FROM metering_records
                        WHERE state IN ('PENDING', 'SENT')
                        """)
                .query(Double.class).single();
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

package dev.keel.controlplane.metrics;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Metric samples at three resolutions. Agents write 10 s buckets; a job rolls completed buckets up
 * into 1 min and 1 h ones and drops each resolution past its retention.
 */
@Repository
class MetricsStore {

    static final int RAW = 10;
    static final int MINUTE = 60;
    static final int HOUR = 3600;

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;
    private final Duration staleAfter;

    MetricsStore(JdbcClient jdbc, ApplicationEventPublisher events,
                 @Value("${keel.health.stale-after:20s}") Duration staleAfter) {
        this.jdbc = jdbc;
        this.events = events;
        this.staleAfter = staleAfter;
    }

    /**
     * What a report changed: whether it is the first to find the broker's listener up on its machine (a broker that
     * (re)started and now serves clients), and whether it changes what the broker's health is made of (its process,
     * listener, quorum or machine, or it ends a silence).
     */
    record Recorded(boolean newlyServing, boolean healthChanged) {
    }

    /**
     * Records one report; a second report in the same 10 s bucket is averaged in. A broker newly serving is told as
     * {@link BrokerServing} inside this transaction, so that what its listeners write commits with the report.
     */
    @Transactional
    Recorded record(UUID instanceId, int nodeId, Instant at, BrokerReport report) {
        Timestamp bucket = Timestamp.from(Instant.ofEpochSecond(at.getEpochSecond() / RAW * RAW));
        Map<String, Double> metrics = report.metrics() == null ? Map.of() : report.metrics();
        for (Map.Entry<String, Double> metric : metrics.entrySet()) {
            if (metric.getValue() == null) {
                continue;
            }
            jdbc.sql("""
                    INSERT INTO metric_samples (instance_id, name, resolution, bucket_start, node_id, value)
                    VALUES (?, ?, 10, ?, ?, ?)
                    ON CONFLICT (instance_id, name, resolution, bucket_start, node_id) DO UPDATE
                    SET value = (metric_samples.value * metric_samples.samples + excluded.value) / (metric_samples.samples + 1),
                        samples = metric_samples.samples + 1
                    """)
                    .params(instanceId, metric.getKey(), bucket, nodeId, metric.getValue())
                    .update();
        }
        BrokerReport.Health health = report.health();
        // The report before is read and replaced in one statement: both sub-statements see the same snapshot, and
        // FOR UPDATE makes a concurrent report of the same broker wait for this one and then read what it wrote. A
        // broker serves from when its listener first answers on its machine; a new machine starts again.
        Recorded recorded = jdbc.sql("""
                        WITH before AS (
                            SELECT listener_up AND ec2_instance_id IS NOT DISTINCT FROM :ec2 AS serving,
                                   (process_up, listener_up, quorum_ok) IS DISTINCT FROM (:processUp, :listenerUp, :quorumOk)
                                       OR ec2_instance_id IS DISTINCT FROM :ec2 OR reported_at < :staleBefore AS changed
                            FROM broker_reports
                            WHERE instance_id = :instance AND node_id = :node FOR UPDATE
                        ), upsert AS (
                            INSERT INTO broker_reports (instance_id, node_id, reported_at, address, process_up, listener_up,
                                                        quorum_ok, detail, ec2_instance_id, serving_since)
                            VALUES (:instance, :node, :at, :address, :processUp, :listenerUp, :quorumOk, :detail, :ec2,
                                    CASE WHEN :listenerUp THEN CAST(:at AS timestamptz) END)
                            ON CONFLICT (instance_id, node_id) DO UPDATE
                            SET reported_at = excluded.reported_at, address = excluded.address,
                                process_up = excluded.process_up, listener_up = excluded.listener_up,
                                quorum_ok = excluded.quorum_ok, detail = excluded.detail,
                                ec2_instance_id = excluded.ec2_instance_id,
                                serving_since = CASE
                                    WHEN broker_reports.ec2_instance_id IS DISTINCT FROM excluded.ec2_instance_id
                                        THEN excluded.serving_since
                                    ELSE coalesce(broker_reports.serving_since, excluded.serving_since) END
                        )
                        SELECT coalesce((SELECT serving FROM before), false) AS was_serving,
                               coalesce((SELECT changed FROM before), true) AS changed
                        """)
                .param("instance", instanceId).param("node", nodeId).param("at", Timestamp.from(at))
                .param("staleBefore", Timestamp.from(at.minus(staleAfter)))
                .param("address", report.address()).param("processUp", health.processUp())
                .param("listenerUp", health.listenerReachable()).param("quorumOk", health.controllerQuorumKnown())
                .param("detail", report.detail()).param("ec2", report.ec2InstanceId())
                .query((rs, n) -> new Recorded(health.listenerReachable() && !rs.getBoolean("was_serving"),
                        rs.getBoolean("changed"))).single();
        if (recorded.newlyServing()) {
            events.publishEvent(new BrokerServing(instanceId, nodeId));
        }
        return recorded;
    }

    /**
     * Points of each metric between {@code from} and {@code to}, one per {@code step} seconds,
     * read from {@code resolution}: brokers are combined per bucket, then buckets per step.
     */
    List<Point> query(UUID instanceId, List<String> names, Instant from, Instant to, int resolution, int step) {
        return jdbc.sql("""
                WITH per_bucket AS (
                    SELECT name, bucket_start, sum(value) AS total, max(value) AS worst
                    FROM metric_samples
                    WHERE instance_id = :instance AND resolution = :resolution AND name IN (:names)
                      AND bucket_start >= :from AND bucket_start < :to
                    GROUP BY name, bucket_start)
                SELECT name,
                       to_timestamp(floor(extract(epoch FROM bucket_start) / :step) * :step) AS t,
                       CASE WHEN name IN (:maxed) THEN max(worst) ELSE avg(total) END AS v
                FROM per_bucket
                GROUP BY name, t
                ORDER BY name, t
                """)
                .param("instance", instanceId)
                .param("resolution", resolution)
                .param("names", names)
                .param("from", Timestamp.from(from))
                .param("to", Timestamp.from(to))
                .param("step", step)
                .param("maxed", BrokerMetric.wireNames(BrokerMetric.Combine.MAX))
                .query((rs, n) -> new Point(rs.getString("name"), rs.getTimestamp("t").toInstant(), rs.getDouble("v")))
                .list();
    }

    /** Recomputes the coarser buckets overlapping the last two of their own size: idempotent, so safe to rerun. */
    void rollUp(int from, int to, Instant now) {
        Instant since = Instant.ofEpochSecond(now.getEpochSecond() / to * to - 2L * to);
        Instant until = Instant.ofEpochSecond(now.getEpochSecond() / to * to);
        jdbc.sql("""
                INSERT INTO metric_samples (instance_id, name, resolution, bucket_start, node_id, value, samples)
                SELECT instance_id, name, :to, bucket, node_id,
                       CASE WHEN name IN (:maxed) THEN max(value) ELSE avg(value) END, sum(samples)
                FROM (SELECT *, to_timestamp(floor(extract(epoch FROM bucket_start) / :to) * :to) AS bucket
                      FROM metric_samples
                      WHERE resolution = :from AND bucket_start >= :since AND bucket_start < :until) finer
                GROUP BY instance_id, name, node_id, bucket
                ON CONFLICT (instance_id, name, resolution, bucket_start, node_id) DO UPDATE
                SET value = excluded.value, samples = excluded.samples
                """)
                .param("from", from)
                .param("to", to)
                .param("since", Timestamp.from(since))
                .param("until", Timestamp.from(until))
                .param("maxed", BrokerMetric.wireNames(BrokerMetric.Combine.MAX))
                .update();
    }

    void dropOlderThan(int resolution, Instant cutoff) {
        jdbc.sql("DELETE FROM metric_samples WHERE resolution = ? AND bucket_start < ?")
                .params(resolution, Timestamp.from(cutoff))
                .update();
    }

    List<ReportedBroker> reports(Collection<UUID> instanceIds) {
        if (instanceIds.isEmpty()) {
            return List.of();
        }
        // A drain is the reporting machine's: a node id reused by a later scale-up starts with none.
        return jdbc.sql("""
                        SELECT r.*, d.status AS drain_status, d.partitions_remaining AS drain_remaining
                        FROM broker_reports r
                        LEFT JOIN broker_drains d ON d.instance_id = r.instance_id AND d.ec2_instance_id = r.ec2_instance_id
                        WHERE r.instance_id IN (:instances) ORDER BY r.instance_id, r.node_id
                        """)
                .param("instances", instanceIds)
                .query((rs, n) -> new ReportedBroker(rs.getObject("instance_id", UUID.class), rs.getInt("node_id"),
                        rs.getTimestamp("reported_at").toInstant(), rs.getString("address"), rs.getBoolean("process_up"),
                        rs.getBoolean("listener_up"), rs.getBoolean("quorum_ok"), rs.getString("detail"),
                        rs.getString("drain_status"), (Integer) rs.getObject("drain_remaining"),
                        rs.getString("ec2_instance_id"), instant(rs.getTimestamp("serving_since"))))
                .list();
    }

    record Point(String name, Instant time, double value) {
    }

    /**
     * {@code drainStatus} is null unless a drain was asked of the reporting machine; {@code servingSince} is null
     * while the broker has not yet served from it.
     */
    record ReportedBroker(UUID instanceId, int nodeId, Instant reportedAt, String address, boolean processUp, boolean listenerUp,
                          boolean quorumOk, String detail, String drainStatus, Integer drainRemaining, String machineId,
                          Instant servingSince) {
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}

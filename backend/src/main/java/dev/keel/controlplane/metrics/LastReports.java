package dev.keel.controlplane.metrics;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.BrokerStatuses;
import dev.keel.controlplane.instances.FleetAgents;

/**
 * What the brokers' last reports tell the rest of the control plane: each broker's health and the
 * address it advertises (a broker silent for {@code keel.health.stale-after}, two missed reports,
 * is unwell and its address no longer trusted), and how many agents are silent across the fleet. Silence says
 * nothing of the machine: the reports may be lost on Keel's side.
 */
@Component
class LastReports implements BrokerStatuses, FleetAgents {

    private final JdbcClient jdbc;
    private final MetricsStore store;
    private final Clock clock;
    private final Duration staleAfter;

    LastReports(JdbcClient jdbc, MetricsStore store, Clock clock,
                @Value("${keel.health.stale-after:20s}") Duration staleAfter) {
        this.jdbc = jdbc;
        this.store = store;
        this.clock = clock;
        this.staleAfter = staleAfter;
    }

    @Override
    public Map<UUID, Map<Integer, BrokerStatus>> of(Collection<UUID> instanceIds) {
        Instant now = clock.instant();
        Map<UUID, Map<Integer, BrokerStatus>> statuses = new HashMap<>();
        instanceIds.forEach(id -> statuses.put(id, new HashMap<>()));
        for (MetricsStore.ReportedBroker report : store.reports(instanceIds)) {
            boolean stale = report.reportedAt().isBefore(now.minus(staleAfter));
            BrokerStatuses.Drain drain = report.drainStatus() == null ? null
                    : new BrokerStatuses.Drain(report.drainStatus(), report.drainRemaining());
            statuses.get(report.instanceId()).put(report.nodeId(), new BrokerStatus(stale ? null : report.address(),
                    report.reportedAt(), problem(report, stale, now), drain, report.machineId(), stale,
                    report.servingSince()));
        }
        return statuses;
    }

    private static String problem(MetricsStore.ReportedBroker report, boolean stale, Instant now) {
        if (stale) {
            return "has not reported for " + Duration.between(report.reportedAt(), now).toSeconds() + " s";
        }
        if (!report.processUp()) {
            return "process is down";
        }
        if (!report.listenerUp()) {
            return "listener is unreachable";
        }
        return report.quorumOk() ? null : "does not see the controller quorum";
    }

    /** In one statement over the live instances' inventories: its cost grows with the fleet, once per call. */
    @Override
    public Census census() {
        return jdbc.sql("""
                        SELECT count(*) AS known, count(*) FILTER (WHERE r.reported_at < ?) AS silent
                        FROM instances i
                        CROSS JOIN LATERAL jsonb_array_elements(i.inventory -> 'brokers') AS b(broker)
                        JOIN broker_reports r ON r.instance_id = i.id AND r.node_id = (b.broker ->> 'nodeId')::int
                             AND r.ec2_instance_id IS NOT DISTINCT FROM b.broker ->> 'machineId'
                        WHERE i.state IN ('RUNNING', 'CHANGING')
                        """)
                .param(Timestamp.from(clock.instant().minus(staleAfter)))
                .query((rs, n) -> new Census(rs.getLong("known"), rs.getLong("silent"))).single();
    }
}

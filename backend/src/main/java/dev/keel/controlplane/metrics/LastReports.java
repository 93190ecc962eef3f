package dev.keel.controlplane.metrics;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.BrokerStatuses;
import dev.keel.controlplane.instances.ImpairedBrokers;

/**
 * What the brokers' last reports tell the rest of the control plane: each broker's health and the
 * address it advertises (a broker silent for {@code keel.health.stale-after}, two missed reports,
 * is unwell and its address no longer trusted), and the machines silent for longer than
 * {@code keel.health.replace-after} — by then the agent would have restarted a crashed broker and
 * reported again, so the machine itself is gone.
 */
@Component
class LastReports implements BrokerStatuses, ImpairedBrokers {

    private final JdbcClient jdbc;
    private final MetricsStore store;
    private final Clock clock;
    private final Duration staleAfter;
    private final Duration replaceAfter;

    LastReports(JdbcClient jdbc, MetricsStore store, Clock clock,
                @Value("${keel.health.stale-after:20s}") Duration staleAfter,
                @Value("${keel.health.replace-after:90s}") Duration replaceAfter) {
        this.jdbc = jdbc;
        this.store = store;
        this.clock = clock;
        this.staleAfter = staleAfter;
        this.replaceAfter = replaceAfter;
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
                    report.reportedAt(), problem(report, stale, now), drain, report.machineId()));
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

    @Override
    public Set<String> silentMachines(UUID instanceId) {
        return Set.copyOf(jdbc.sql("""
                        SELECT ec2_instance_id FROM broker_reports
                        WHERE instance_id = ? AND reported_at < ? AND ec2_instance_id IS NOT NULL
                        """)
                .params(instanceId, since(replaceAfter))
                .query(String.class).list());
    }

    private Timestamp since(Duration age) {
        return Timestamp.from(clock.instant().minus(age));
    }
}

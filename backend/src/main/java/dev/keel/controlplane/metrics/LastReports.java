package dev.keel.controlplane.metrics;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.AdvertisedAddresses;
import dev.keel.controlplane.instances.ImpairedBrokers;

/**
 * What the brokers' last reports tell the rest of the control plane: the addresses recent reports
 * advertise, and the machines silent for longer than {@code keel.health.replace-after} — by then
 * the agent would have restarted a crashed broker and reported again, so the machine itself is
 * gone. (The {@code Degraded} condition names silent brokers sooner, at {@code stale-after}.)
 */
@Component
class LastReports implements AdvertisedAddresses, ImpairedBrokers {

    private final JdbcClient jdbc;
    private final Clock clock;
    private final Duration staleAfter;
    private final Duration replaceAfter;

    LastReports(JdbcClient jdbc, Clock clock, @Value("${keel.health.stale-after:20s}") Duration staleAfter,
                @Value("${keel.health.replace-after:90s}") Duration replaceAfter) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.staleAfter = staleAfter;
        this.replaceAfter = replaceAfter;
    }

    @Override
    public Map<Integer, String> of(UUID instanceId) {
        Map<Integer, String> addresses = new HashMap<>();
        jdbc.sql("SELECT node_id, address FROM broker_reports WHERE instance_id = ? AND reported_at >= ? AND address IS NOT NULL")
                .params(instanceId, since(staleAfter))
                .query(rs -> {
                    addresses.put(rs.getInt("node_id"), rs.getString("address"));
                });
        return addresses;
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

package dev.keel.controlplane.metrics;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.AdvertisedAddresses;

/** Advertised listener addresses from the brokers' recent reports. */
@Component
class ReportedAddresses implements AdvertisedAddresses {

    private final JdbcClient jdbc;
    private final Clock clock;
    private final Duration staleAfter;

    ReportedAddresses(JdbcClient jdbc, Clock clock, @Value("${keel.health.stale-after:30s}") Duration staleAfter) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.staleAfter = staleAfter;
    }

    @Override
    public Map<Integer, String> of(UUID instanceId) {
        Map<Integer, String> addresses = new HashMap<>();
        jdbc.sql("SELECT node_id, address FROM broker_reports WHERE instance_id = ? AND reported_at >= ? AND address IS NOT NULL")
                .params(instanceId, Timestamp.from(clock.instant().minus(staleAfter)))
                .query(rs -> {
                    addresses.put(rs.getInt("node_id"), rs.getString("address"));
                });
        return addresses;
    }
}

package dev.keel.controlplane.kafkaaccess;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.BrokerCredentials;
import dev.keel.controlplane.metrics.BrokerServing;

/**
 * A broker that starts after a SCRAM credential was written can come up without it (seen on Apache Kafka 4.4: a
 * broker-only node that joined later refused the credential until it was written again), and would then refuse that
 * user for good. So when a broker starts serving, every credential of its instance is sent to the agent again and
 * written again, which reaches every broker as a new metadata record. Each time is a delivery with a number: the
 * broker waits for that delivery ({@link BrokerCredentials}) until the agent reports a pass that pulled it (or a later
 * one) applied in full, which only a pass that began after the broker served can, and so the broker has the
 * credentials. It runs in the transaction that records the broker serving: no reading of the broker can see it serve
 * before its delivery is asked for.
 */
@Component
class CredentialRedelivery implements BrokerCredentials {

    private static final Logger log = LoggerFactory.getLogger(CredentialRedelivery.class);

    private final JdbcClient jdbc;

    CredentialRedelivery(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener
    void brokerServing(BrokerServing serving) {
        // Only where brokers authenticate: an instance with plaintext listeners has no credentials to deliver.
        Long delivery = jdbc.sql("""
                        INSERT INTO access_deliveries (instance_id, requested)
                        SELECT id, 1 FROM instances WHERE id = ? AND listener_security = 'SASL_SSL'
                        ON CONFLICT (instance_id) DO UPDATE SET requested = access_deliveries.requested + 1
                        RETURNING requested
                        """)
                .param(serving.instanceId()).query(Long.class).optional().orElse(null);
        if (delivery == null) {
            return;
        }
        jdbc.sql("""
                INSERT INTO broker_credential_deliveries (instance_id, node_id, delivery) VALUES (?, ?, ?)
                ON CONFLICT (instance_id, node_id) DO UPDATE SET delivery = excluded.delivery
                """).params(serving.instanceId(), serving.nodeId(), delivery).update();
        int users = jdbc.sql("""
                        UPDATE kafka_users SET applied_credential_version = NULL
                        WHERE instance_id = ? AND status IN ('ACTIVE', 'UPDATING', 'RESTORING')
                        """)
                .param(serving.instanceId()).update();
        log.info("Broker {} of instance {} serves clients: its {} Kafka users' credentials are written again "
                + "(delivery {})", serving.nodeId(), serving.instanceId(), users, delivery);
    }

    @Override
    public Map<UUID, Set<Integer>> awaited(Collection<UUID> instanceIds) {
        if (instanceIds.isEmpty()) {
            return Map.of();
        }
        return jdbc.sql("""
                        SELECT b.instance_id, b.node_id FROM broker_credential_deliveries b
                        JOIN access_deliveries d ON d.instance_id = b.instance_id
                        WHERE b.instance_id IN (:instances) AND b.delivery > d.applied
                        """)
                .param("instances", instanceIds)
                .query((rs, n) -> Map.entry(rs.getObject("instance_id", UUID.class), rs.getInt("node_id"))).list()
                .stream().collect(Collectors.groupingBy(Map.Entry::getKey,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toSet())));
    }
}

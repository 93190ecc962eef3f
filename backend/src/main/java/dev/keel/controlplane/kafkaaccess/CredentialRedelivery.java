package dev.keel.controlplane.kafkaaccess;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.metrics.BrokerServing;

/**
 * A broker that starts after a SCRAM credential was written can come up without it (seen on Apache Kafka 4.4: a
 * broker-only node that joined later refused the credential until it was written again), and would then refuse that
 * user for good. So when a broker starts serving, every credential of its instance is sent to the agent again and
 * written again, which reaches every broker as a new metadata record; the agent reports it applied as usual.
 */
@Component
class CredentialRedelivery {

    private static final Logger log = LoggerFactory.getLogger(CredentialRedelivery.class);

    private final JdbcClient jdbc;

    CredentialRedelivery(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @EventListener
    void brokerServing(BrokerServing serving) {
        int users = jdbc.sql("""
                        UPDATE kafka_users SET applied_credential_version = NULL
                        WHERE instance_id = ? AND status IN ('ACTIVE', 'UPDATING', 'RESTORING')
                        """)
                .param(serving.instanceId()).update();
        if (users > 0) {
            log.info("Broker {} of instance {} serves clients: its {} Kafka users' credentials are written again",
                    serving.nodeId(), serving.instanceId(), users);
        }
    }
}

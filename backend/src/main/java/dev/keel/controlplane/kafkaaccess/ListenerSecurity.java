package dev.keel.controlplane.kafkaaccess;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Whether an instance's brokers authenticate clients, so that Kafka users and ACLs mean something there. Instances
 * created with {@code listenerSecurity: PLAINTEXT_UNAUTHENTICATED} (column {@code instances.listener_security}, which
 * secure listeners add) authenticate nobody; where the column is not there, every instance is taken to authenticate.
 */
@Component
class ListenerSecurity {

    private static final String UNAUTHENTICATED = "PLAINTEXT_UNAUTHENTICATED";

    private final JdbcClient jdbc;
    private volatile Boolean recorded;

    ListenerSecurity(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    boolean authenticates(UUID instanceId) {
        if (!recorded()) {
            return true;
        }
        return !UNAUTHENTICATED.equals(jdbc.sql("SELECT listener_security FROM instances WHERE id = ?")
                .param(instanceId).query(String.class).optional().orElse(null));
    }

    private boolean recorded() {
        if (recorded == null) {
            recorded = jdbc.sql("""
                    SELECT EXISTS (SELECT 1 FROM information_schema.columns
                                   WHERE table_schema = current_schema() AND table_name = 'instances'
                                     AND column_name = 'listener_security')
                    """).query(Boolean.class).single();
        }
        return recorded;
    }
}

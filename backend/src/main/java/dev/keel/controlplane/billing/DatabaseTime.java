package dev.keel.controlplane.billing;

import java.sql.Timestamp;
import java.time.Instant;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The database's clock: what decides metering's hours. Backend processes' own clocks may be minutes apart; every
 * process reads this one, and capacity periods are stamped with it.
 */
@Component
class DatabaseTime {

    private final JdbcClient jdbc;

    DatabaseTime(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Instant now() {
        return jdbc.sql("SELECT statement_timestamp()").query(Timestamp.class).single().toInstant();
    }
}

package dev.keel.controlplane;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.WorkerEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Migrations applied once per upgrade, as the Helm chart does it: the packaged backend's {@code migrate} command
 * (the chart's Job), then replicas that start without migrating (KEEL_DB_MIGRATE_ON_START=false).
 */
class DatabaseMigrationIT {

    private static final Duration WITHIN = Duration.ofSeconds(90);

    @Test
    void migrateAppliesEveryMigrationAndExitsHavingStartedNothingElse() {
        String url = Database.fresh();
        try {
            BackendProcess.Exit exit = BackendProcess.command("migrate", List.of("migrate"), on(url, Map.of()), WITHIN);

            assertThat(exit.code()).as(exit.output()).isZero();
            Flyway migrations = Flyway.configure().dataSource(Database.dataSource(url))
                    .locations("classpath:db/migration").load();
            assertThat(migrations.info().applied()).isNotEmpty();
            assertThat(migrations.info().pending()).isEmpty();
            // No workers: a backend that started would have scheduled its recurring tasks.
            assertThat(JdbcClient.create(Database.dataSource(url)).sql("SELECT count(*) FROM scheduled_tasks")
                    .query(Long.class).single()).isZero();
        } finally {
            Database.drop(url);
        }
    }

    @Test
    void aReplicaToldNotToMigrateStartsWithoutTouchingTheSchema() throws Exception {
        String url = Database.fresh();
        try {
            try (BackendProcess replica = BackendProcess.start("not-migrating",
                    on(url, Map.of("KEEL_DB_MIGRATE_ON_START", "false")), WITHIN)) {
                assertThat(JdbcClient.create(Database.dataSource(url))
                        .sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").query(Long.class).single())
                        .isZero();
            }
        } finally {
            Database.drop(url);
        }
    }

    /** The backend's settings of the multi-process tests, on the database at {@code url}, plus {@code more}. */
    private static Map<String, String> on(String url, Map<String, String> more) {
        Map<String, String> environment = new HashMap<>(WorkerEnvironment.withStepDelay(Duration.ZERO));
        environment.put("KEEL_DB_URL", url);
        environment.putAll(more);
        return environment;
    }
}

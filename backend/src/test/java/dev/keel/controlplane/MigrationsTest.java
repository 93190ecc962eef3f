package dev.keel.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.Database;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The migrations applied to a database that already holds data, as they are in production, not only to the empty
 * one every other test starts from. Each fixture {@code migrations/V<n>.sql} (test resources) holds representative
 * rows of a database at schema version n, a row in every table; it is loaded at that version and migrated to the
 * newest. A migration that changes existing data adds the rows it is about to the fixture of the version before it
 * (or a new fixture at that version) and a test here of what it made of them.
 */
class MigrationsTest {

    private static final String FIXTURES = "classpath:migrations/V*.sql";

    @TestFactory
    Stream<DynamicTest> everyFixtureMigratesToTheNewestVersionKeepingEveryRow() {
        return fixtures().map(fixture -> DynamicTest.dynamicTest(fixture.getFilename(), () -> {
            String url = Database.fresh();
            try {
                DataSource database = Database.dataSource(url);
                load(database, fixture);
                JdbcClient jdbc = JdbcClient.create(database);
                Map<String, Long> before = rowCounts(jdbc);
                assertThat(before).as("%s must put a row in every table of its version", fixture.getFilename())
                        .allSatisfy((table, rows) -> assertThat(rows).as(table).isPositive());

                flyway(database, MigrationVersion.LATEST).migrate();

                MigrationInfo[] all = flyway(database, MigrationVersion.LATEST).info().all();
                assertThat(flyway(database, MigrationVersion.LATEST).info().current().getVersion())
                        .isEqualTo(all[all.length - 1].getVersion());
                Map<String, Long> after = rowCounts(jdbc);
                before.forEach((table, rows) -> assertThat(after.get(table)).as("rows of %s", table).isEqualTo(rows));
            } finally {
                Database.drop(url);
            }
        }));
    }

    @Test
    void v008OpensACapacityPeriodForEveryInstanceThatRanWhenItWasApplied() throws Exception {
        List<String> periods = migrated("V007.sql", "8", """
                SELECT i.name, o.slug, p.aku, p.started_at, p.ended_at
                FROM capacity_periods p JOIN instances i ON i.id = p.instance_id
                                        JOIN organizations o ON o.id = p.organization_id
                ORDER BY i.name
                """, (rs, n) -> rs.getString(1) + " " + rs.getString(2) + " " + rs.getInt(3) + " AKU from "
                + rs.getTimestamp(4).toInstant() + " to " + rs.getTimestamp(5));
        // From the create's success, at the capacity the row holds; not an instance whose create failed or has
        // not finished, nor one deleted or being deleted.
        assertThat(periods).containsExactly(
                "changing globex 9 AKU from 2026-10-03T00:04:00Z to null",
                "failed-scale acme 3 AKU from 2026-10-04T00:03:00Z to null",
                "running acme 3 AKU from 2026-10-01T10:05:00Z to null",
                "running-scaled acme 6 AKU from 2026-10-02T08:00:00Z to null");
    }

    @Test
    void v010LeavesEveryExistingInstanceDeletableWithNoDataKept() throws Exception {
        List<String> instances = migrated("V007.sql", "10",
                "SELECT name, deletion_protection, data_retained_until FROM instances ORDER BY name",
                (rs, n) -> rs.getString(1) + " " + rs.getBoolean(2) + " " + rs.getTimestamp(3));
        // Deletable as before the setting existed, deleted ones included: their data went with them.
        assertThat(instances).isNotEmpty().allSatisfy(row -> assertThat(row).endsWith(" false null"));
    }

    @Test
    void v012GivesEachRoleToItsEarliestLiveRegistration() throws Exception {
        List<String> owners = migrated("V007.sql", "12", "SELECT name, role_owner FROM cloud_accounts ORDER BY name",
                (rs, n) -> rs.getString(1) + " " + rs.getBoolean(2));
        // "borrowed" names production's role in another case: the same IAM role, registered later by globex.
        assertThat(owners).containsExactly("borrowed false", "gone false", "main true", "production true",
                "staging false");
    }

    @Test
    void v011LeavesTheRoutingOfEveryInstanceCreatedBeforeItAlone() throws Exception {
        List<String> modes = migrated("V007.sql", "11", "SELECT name, s3_gateway_endpoint FROM instances ORDER BY name",
                (rs, n) -> rs.getString(2));
        assertThat(modes).isNotEmpty().containsOnly("NONE");
    }

    @Test
    void v018LeavesEveryInstanceCreatedBeforeItOnThePlaintextListenersItRuns() throws Exception {
        List<String> security = migrated("V007.sql", "18", "SELECT name, listener_security FROM instances ORDER BY name",
                (rs, n) -> rs.getString(2));
        assertThat(security).isNotEmpty().containsOnly("PLAINTEXT_UNAUTHENTICATED");
    }

    @Test
    void v023TakesEveryBrokerReportedServingForServingSinceItsReport() throws Exception {
        List<String> reports = migrated("V007.sql", "23", """
                SELECT i.name, r.node_id, r.serving_since FROM broker_reports r JOIN instances i ON i.id = r.instance_id
                ORDER BY i.name
                """, (rs, n) -> rs.getString(1) + " " + rs.getInt(2) + " " + (rs.getTimestamp(3) == null ? "starting"
                : "serving since " + rs.getTimestamp(3).toInstant()));
        // A broker whose listener answered served; one whose process had exited never started on its machine.
        assertThat(reports).containsExactly("running 0 serving since 2026-10-09T23:59:55Z", "running-scaled 1 starting");
    }

    /** The rows {@code query} finds once {@code fixture} is migrated to {@code version}, in a database of their own. */
    private static <T> List<T> migrated(String fixture, String version, String query, RowMapper<T> row)
            throws IOException, SQLException {
        String url = Database.fresh();
        try {
            DataSource database = Database.dataSource(url);
            load(database, fixture(fixture));
            flyway(database, MigrationVersion.fromVersion(version)).migrate();
            return JdbcClient.create(database).sql(query).query(row).list();
        } finally {
            Database.drop(url);
        }
    }

    /** The fixture's rows in a new database migrated to the fixture's version. */
    private static void load(DataSource database, Resource fixture) throws IOException, SQLException {
        String version = fixture.getFilename().replaceFirst("^V(\\d+)\\.sql$", "$1");
        flyway(database, MigrationVersion.fromVersion(version)).migrate();
        try (Connection connection = database.getConnection(); Statement script = connection.createStatement()) {
            script.execute(fixture.getContentAsString(StandardCharsets.UTF_8));
        }
    }

    private static Flyway flyway(DataSource database, MigrationVersion target) {
        return Flyway.configure().dataSource(database).locations("classpath:db/migration").target(target).load();
    }

    /** Rows per table of the application's schema (Flyway's own history aside). */
    private static Map<String, Long> rowCounts(JdbcClient jdbc) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : jdbc.sql("""
                SELECT table_name FROM information_schema.tables
                WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'flyway_schema_history'
                ORDER BY table_name
                """).query(String.class).list()) {
            counts.put(table, jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single());
        }
        return counts;
    }

    private static Stream<Resource> fixtures() {
        try {
            Resource[] found = new PathMatchingResourcePatternResolver().getResources(FIXTURES);
            assertThat(found).as(FIXTURES).isNotEmpty();
            return Arrays.stream(found);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Resource fixture(String name) {
        return fixtures().filter(f -> name.equals(f.getFilename())).findFirst().orElseThrow();
    }
}

package dev.keel.controlplane.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Direct access to the test database: facts the API does not expose (which worker ran a step), and rows a test
 * needs at times it cannot wait for (usage over past days).
 */
public final class Database {

    private Database() {
    }

    public record StepRun(int position, String name, String state, int attempts, String worker) {
    }

    public static List<StepRun> steps(UUID operationId) {
        return steps(TestEnvironment.databaseUrl(), operationId);
    }

    public static List<StepRun> steps(String databaseUrl, UUID operationId) {
        List<StepRun> steps = new ArrayList<>();
        try (Connection connection = connect(databaseUrl);
             PreparedStatement query = connection.prepareStatement(
                     "SELECT position, name, state, attempts, last_worker FROM operation_steps WHERE operation_id = ? ORDER BY position")) {
            query.setObject(1, operationId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    steps.add(new StepRun(rows.getInt(1), rows.getString(2), rows.getString(3), rows.getInt(4), rows.getString(5)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return steps;
    }

    /** The instance's inventory as stored (JSON), which holds what its create recorded its brokers boot. */
    public static String inventory(UUID instanceId) {
        return inventory(TestEnvironment.databaseUrl(), instanceId);
    }

    public static String inventory(String databaseUrl, UUID instanceId) {
        try (Connection connection = connect(databaseUrl);
             PreparedStatement query = connection.prepareStatement("SELECT inventory FROM instances WHERE id = ?")) {
            query.setObject(1, instanceId);
            try (ResultSet rows = query.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("No instance " + instanceId);
                }
                return rows.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The stored inventory (JSON) of every instance of {@code databaseUrl} not deleted, by instance id. */
    public static Map<UUID, String> inventories(String databaseUrl) {
        Map<UUID, String> inventories = new LinkedHashMap<>();
        try (Connection connection = connect(databaseUrl);
             PreparedStatement query = connection.prepareStatement(
                     "SELECT id, inventory FROM instances WHERE state <> 'DELETED' ORDER BY id");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                inventories.put(rows.getObject(1, UUID.class), rows.getString(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return inventories;
    }

    /** Runs one statement with its parameters on the test database; returns the rows it changed. */
    public static int update(String sql, Object... parameters) {
        try (Connection connection = connect(TestEnvironment.databaseUrl());
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Leaves the organizations (by slug) without a Marketplace subscription, and without the rows that name one: a
     * subscription decides what every other test of those organizations may create, so no test leaves one behind.
     */
    public static void withoutSubscriptions(String... slugs) {
        String subscriptions = "SELECT s.id FROM marketplace_subscriptions s JOIN organizations o"
                + " ON o.id = s.organization_id WHERE o.slug = ANY (?)";
        try (Connection connection = connect(TestEnvironment.databaseUrl())) {
            Object slugArray = connection.createArrayOf("text", slugs);
            for (String sql : List.of(
                    "DELETE FROM marketplace_agreement_events WHERE subscription_id IN (" + subscriptions + ")",
                    "DELETE FROM metering_records WHERE subscription_id IN (" + subscriptions + ")",
                    "DELETE FROM marketplace_subscriptions WHERE id IN (" + subscriptions + ")")) {
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.setObject(1, slugArray);
                    statement.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new, empty database on the test server, for backend processes that must not see other tests' data. */
    public static String fresh() {
        String name = "keel_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String url = TestEnvironment.databaseUrl();
        try (Connection connection = connect(url); var statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return url.substring(0, url.lastIndexOf('/') + 1) + name;
    }

    /** Drops a database {@link #fresh()} made, closing what is still connected to it. */
    public static void drop(String databaseUrl) {
        String name = databaseUrl.substring(databaseUrl.lastIndexOf('/') + 1);
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = connect(TestEnvironment.databaseUrl()); var statement = connection.createStatement()) {
                statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                return;
            } catch (SQLException e) {
                // An autovacuum worker that has just started on the new database belongs to no role the tests' user may
                // end: it is done within moments, so the drop is tried again.
                if (!"42501".equals(e.getSQLState()) || attempt == 20) {
                    throw new IllegalStateException(e);
                }
                Pause.of(Duration.ofMillis(250));
            }
        }
    }

    /** The database at {@code url}, for Flyway and JdbcClient; a connection per use. */
    public static DataSource dataSource(String url) {
        return new DriverManagerDataSource(url, username(), password());
    }

    private static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, username(), password());
    }

    private static String username() {
        return System.getenv().getOrDefault("KEEL_DB_USERNAME", "keel");
    }

    private static String password() {
        return System.getenv().getOrDefault("KEEL_DB_PASSWORD", "keel");
    }
}

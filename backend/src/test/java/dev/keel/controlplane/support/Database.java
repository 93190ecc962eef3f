package dev.keel.controlplane.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Direct reads of the test database, for facts the API does not expose (which worker ran a step). */
public final class Database {

    private Database() {
    }

    public record StepRun(int position, String name, String state, int attempts, String worker) {
    }

    public static List<StepRun> steps(UUID operationId) {
        List<StepRun> steps = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(TestEnvironment.databaseUrl(),
                System.getenv().getOrDefault("KEEL_DB_USERNAME", "keel"), System.getenv().getOrDefault("KEEL_DB_PASSWORD", "keel"));
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
}

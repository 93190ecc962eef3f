package dev.keel.controlplane.idempotency;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.shared.LockSessions;

/**
 * The claims this process's requests hold, each as a PostgreSQL advisory lock on its holder, all in one session of the
 * process's own (a connection outside the pool): taken before the claim is written, given up once it is answered or
 * released. The session ends with the process, {@code kill -9} included, and its locks with it, so a claim whose
 * holder's lock is free belongs to a request that died, which a retry takes over at once. Should the session break
 * while the process lives, its requests' claims can be taken over too; their changes are then refused, as those of
 * requests that were only slow.
 */
@Component
class ProcessHolds {

    private final LockSessions sessions;
    private Connection session;

    ProcessHolds(LockSessions sessions) {
        this.sessions = sessions;
    }

    /** The lock of the claim whose holder the SQL expression {@code holder} (text) names. */
    static String lockOf(String holder) {
        return "hashtextextended('idempotency:' || " + holder + ", 0)";
    }

    /** Takes the lock of {@code holder}'s claim, before the claim is written. */
    synchronized void hold(UUID holder) {
        for (int attempt = 1; ; attempt++) {
            try {
                run("SELECT pg_advisory_lock(" + lockOf("?") + ")", holder);
                return;
            } catch (SQLException e) {
                // The session broke, and the locks it held went with it: a new one holds from now on.
                forget();
                if (attempt == 2) {
                    throw new IllegalStateException("The claim of request " + holder + " could not be held", e);
                }
            }
        }
    }

    /** Gives up the lock of {@code holder}'s claim, which is answered, released or was never written. */
    synchronized void letGo(UUID holder) {
        try {
            run("SELECT pg_advisory_unlock(" + lockOf("?") + ")", holder);
        } catch (SQLException broken) {
            // Its locks ended with the session.
            forget();
        }
    }

    private void run(String sql, UUID holder) throws SQLException {
        if (session == null) {
            session = sessions.open();
        }
        try (PreparedStatement statement = session.prepareStatement(sql)) {
            statement.setString(1, holder.toString());
            statement.execute();
        }
    }

    private void forget() {
        try {
            if (session != null) {
                session.close();
            }
        } catch (SQLException alreadyBroken) {
            // closed with its session
        }
        session = null;
    }
}

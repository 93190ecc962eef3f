package dev.keel.controlplane.shared;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.stereotype.Component;

/**
 * Database sessions of their own, outside the pool and any transaction, for PostgreSQL session-level advisory locks: a
 * lock lives as long as its session, so the session must not go back to a pool that would hand it, lock and all, to
 * other work; and a process that dies ends its sessions, and their locks with them.
 */
@Component
public class LockSessions {

    private final DataSource sessions;

    LockSessions(@Value("${spring.datasource.url}") String url, @Value("${spring.datasource.username}") String username,
                 @Value("${spring.datasource.password}") String password) {
        this.sessions = new DriverManagerDataSource(url, username, password);
    }

    /** A new session, which its caller closes to end it and give up its locks. */
    public Connection open() throws SQLException {
        return sessions.getConnection();
    }
}

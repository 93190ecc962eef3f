package dev.keel.controlplane.shared;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Keyset position in a list ordered newest first by (time, id). Opaque to clients: they only pass
 * back what {@code nextCursor} said.
 */
public record Cursor(Instant time, UUID id) {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    public static Cursor decode(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        try {
            String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|", 2);
            return new Cursor(Instant.parse(parts[0]), UUID.fromString(parts[1]));
        } catch (RuntimeException e) {
            throw ApiException.validation("cursor", "is not a cursor this API returned; start again without it");
        }
    }

    public static int limit(Integer limit) {
        if (limit == null) {
            return DEFAULT_LIMIT;
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ApiException.validation("limit", "must be between 1 and " + MAX_LIMIT);
        }
        return limit;
    }

    /**
     * Binds {@code :afterTime} and {@code :afterId} for the keyset condition
     * {@code (CAST(:afterTime AS timestamptz) IS NULL OR (time, id) < (:afterTime, :afterId))}.
     */
    public static JdbcClient.StatementSpec bind(JdbcClient.StatementSpec statement, Cursor after) {
        return statement.param("afterTime", after == null ? null : Timestamp.from(after.time()))
                .param("afterId", after == null ? null : after.id());
    }

    public String encode() {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((time + "|" + id).getBytes(StandardCharsets.UTF_8));
    }

    /** Cuts a result fetched with {@code limit + 1} rows into a page and the cursor after it. */
    public static <T> Page<T> page(List<T> rows, int limit, Function<T, Cursor> position) {
        if (rows.size() <= limit) {
            return new Page<>(rows, null);
        }
        List<T> items = rows.subList(0, limit);
        return new Page<>(List.copyOf(items), position.apply(items.getLast()).encode());
    }
}

package dev.keel.controlplane.kafkaaccess;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Page;

/** Keyset position in a list ordered by name: the last name of the page before. Opaque to clients. */
final class NameCursor {

    private NameCursor() {
    }

    /** The name after which the page starts; null for the first page. */
    static String decode(String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (!decoded.startsWith("n|")) {
                throw new IllegalArgumentException();
            }
            return decoded.substring(2);
        } catch (IllegalArgumentException e) {
            throw ApiException.validation("cursor", "is not a cursor this API returned; start again without it");
        }
    }

    /** Cuts rows fetched with {@code limit + 1} into a page and the cursor after it. */
    static <T> Page<T> page(List<T> rows, int limit, Function<T, String> name) {
        if (rows.size() <= limit) {
            return new Page<>(List.copyOf(rows), null);
        }
        List<T> items = List.copyOf(rows.subList(0, limit));
        return new Page<>(items, Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("n|" + name.apply(items.getLast())).getBytes(StandardCharsets.UTF_8)));
    }
}

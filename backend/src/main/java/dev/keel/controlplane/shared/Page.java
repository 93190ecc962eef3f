package dev.keel.controlplane.shared;

import java.util.List;

/** One page of a cursor-paginated list; {@code nextCursor} is null on the last page. */
public record Page<T>(List<T> items, String nextCursor) {
}

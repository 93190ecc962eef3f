package dev.keel.controlplane.shared;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A path a person's browser is sent to, not an API client: its errors must be pages the person can read, even those
 * the API's filters raise before its handler runs (a body over {@code keel.api.max-request-body}, a query string
 * that cannot be decoded, a path the firewall refuses). {@link ProblemWriter} hands such errors to it.
 */
public interface ErrorPages {

    boolean serves(HttpServletRequest request);

    /** Writes the page for {@code type}, with that type's status. */
    void write(HttpServletResponse response, ProblemType type) throws IOException;
}

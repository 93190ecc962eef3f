package dev.keel.controlplane.identity;

import java.util.Optional;

import jakarta.servlet.http.HttpServletRequest;

/** The caller of a request, for servlet filters that run after authentication. */
public final class Callers {

    private Callers() {
    }

    public static Optional<Caller> of(HttpServletRequest request) {
        return Optional.ofNullable((Caller) request.getAttribute(Caller.REQUEST_ATTRIBUTE));
    }
}

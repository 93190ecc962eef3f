package dev.keel.controlplane.identity;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The bearer tokens refused per client address, in windows that open with an address's first refusal: once an address
 * has had {@code keel.api.authentication.max-failures} refused within {@code keel.api.authentication.failure-window},
 * it waits for the window to close before a token the API has not accepted yet is checked again. Guessing tokens and
 * flooding the API with forged ones, each costing a signature check, are slowed to that pace.
 */
@Component
class FailedAuthentications {

    /** Addresses tracked at most: about a megabyte. */
    static final int CAPACITY = 10_000;

    private final int maxFailures;
    private final Duration window;
    private final Clock clock;
    private final Map<String, Window> byAddress = new ConcurrentHashMap<>();

    FailedAuthentications(@Value("${keel.api.authentication.max-failures}") int maxFailures,
                          @Value("${keel.api.authentication.failure-window}") Duration window, Clock clock) {
        this.maxFailures = maxFailures;
        this.window = window;
        this.clock = clock;
    }

    int maxFailures() {
        return maxFailures;
    }

    Duration window() {
        return window;
    }

    /** How long {@code address} must wait before a token not yet accepted from it is checked; empty if not at all. */
    Optional<Duration> wait(String address) {
        Window failures = byAddress.get(address);
        Instant now = clock.instant();
        if (failures == null || failures.count() < maxFailures || !now.isBefore(failures.closes())) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, failures.closes()));
    }

    void record(String address) {
        Instant now = clock.instant();
        if (!byAddress.containsKey(address) && byAddress.size() >= CAPACITY) {
            // Addresses still waiting stay tracked: a flood from many addresses must not set one free early.
            byAddress.values().removeIf(failures -> !now.isBefore(failures.closes()) || failures.count() < maxFailures);
            if (byAddress.size() >= CAPACITY) {
                return;
            }
        }
        byAddress.compute(address, (a, failures) -> failures == null || !now.isBefore(failures.closes())
                ? new Window(now.plus(window), 1)
                : new Window(failures.closes(), failures.count() + 1));
    }

    private record Window(Instant closes, int count) {
    }
}

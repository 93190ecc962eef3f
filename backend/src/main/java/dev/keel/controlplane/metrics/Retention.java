package dev.keel.controlplane.metrics;

import java.time.Duration;
import java.time.Instant;

/** How long each resolution is kept: 10 s for a day, 1 min for 14 days, 1 h for a year. */
final class Retention {

    static final Duration RAW = Duration.ofHours(24);
    static final Duration MINUTES = Duration.ofDays(14);
    static final Duration HOURS = Duration.ofDays(365);

    private Retention() {
    }

    /** The finest resolution still kept for data as old as {@code from}. */
    static int resolutionFor(Instant from, Instant now) {
        if (!from.isBefore(now.minus(RAW))) {
            return MetricsStore.RAW;
        }
        return from.isBefore(now.minus(MINUTES)) ? MetricsStore.HOUR : MetricsStore.MINUTE;
    }
}

package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The AKU-hours an organization ran in one hour, as the whole number Marketplace is sent: each capacity period's AKU
 * times the part of the hour it ran (within the subscription's own time), summed over the organization's instances,
 * then rounded to the nearest AKU-hour (a half rounds up). An idle hour is 0.
 */
final class HourlyUsage {

    private static final long HOUR_MILLIS = Duration.ofHours(1).toMillis();

    private HourlyUsage() {
    }

    /** {@code from} and {@code to} clip the hour {@code [hour, hour + 1h)} to when the subscription was billable. */
    static int akuHours(List<CapacityLedger.Period> periods, Instant hour, Instant from, Instant to) {
        Instant start = from.isAfter(hour) ? from : hour;
        Instant hourEnd = hour.plus(Duration.ofHours(1));
        Instant end = to != null && to.isBefore(hourEnd) ? to : hourEnd;
        long akuMillis = 0;
        for (CapacityLedger.Period p : periods) {
            Instant ran = p.startedAt().isAfter(start) ? p.startedAt() : start;
            Instant stopped = p.endedAt() == null || p.endedAt().isAfter(end) ? end : p.endedAt();
            if (stopped.isAfter(ran)) {
                akuMillis += p.aku() * Duration.between(ran, stopped).toMillis();
            }
        }
        return Math.toIntExact((akuMillis + HOUR_MILLIS / 2) / HOUR_MILLIS);
    }
}

package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The usage an hour is metered with, exactly: each capacity period's AKU times the milliseconds it ran within the
 * hour and within a subscription's billable time, summed, then sent in whole AKU-minutes with what is below a whole
 * one carried into the buyer's next hour. So a buyer's records add up, at any hour, to the capacity periods' usage
 * less under one AKU-minute, as {@code /billing/usage} counts it; an idle hour is 0.
 */
final class HourlyUsage {

    static final Duration HOUR = Duration.ofHours(1);
    private static final long AKU_MINUTE_MS = Duration.ofMinutes(1).toMillis();

    private HourlyUsage() {
    }

    /** A subscription's billable time {@code [from, to)}; {@code to} null while it runs. */
    record Window(Instant from, Instant to) {
    }

    /** An hour's usage in whole AKU-minutes, and the AKU-milliseconds below a whole one it carries on. */
    record AkuMinutes(int quantity, int carry) {
    }

    /**
     * The AKU-milliseconds the periods ran within {@code [hour, hour + 1h)}, counting only time within
     * {@code windows} (an organization's subscriptions: time within two of them counts once).
     */
    static long akuMillis(List<CapacityLedger.Period> periods, Instant hour, List<Window> windows) {
        long akuMillis = 0;
        for (Window window : merged(windows)) {
            Instant start = later(window.from(), hour);
            Instant end = earlier(window.to(), hour.plus(HOUR));
            for (CapacityLedger.Period p : periods) {
                Instant ran = later(p.startedAt(), start);
                Instant stopped = earlier(p.endedAt(), end);
                if (stopped.isAfter(ran)) {
                    akuMillis += p.aku() * Duration.between(ran, stopped).toMillis();
                }
            }
        }
        return akuMillis;
    }

    /** {@code akuMillis} and the carry from the hour before in whole AKU-minutes, and the carry on. */
    static AkuMinutes akuMinutes(long akuMillis, int carriedIn) {
        long total = akuMillis + carriedIn;
        return new AkuMinutes(Math.toIntExact(total / AKU_MINUTE_MS), (int) (total % AKU_MINUTE_MS));
    }

    /** The windows with those that overlap or touch joined, oldest first. */
    private static List<Window> merged(List<Window> windows) {
        List<Window> merged = new ArrayList<>();
        for (Window w : windows.stream().sorted(Comparator.comparing(Window::from)).toList()) {
            Window last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && (last.to() == null || !last.to().isBefore(w.from()))) {
                merged.set(merged.size() - 1, new Window(last.from(),
                        last.to() == null || w.to() == null ? null : later(last.to(), w.to())));
            } else {
                merged.add(w);
            }
        }
        return merged;
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** {@code a} null: open, so {@code b}. */
    private static Instant earlier(Instant a, Instant b) {
        return a == null || a.isAfter(b) ? b : a;
    }
}

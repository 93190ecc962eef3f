package dev.keel.perf;

import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One latency, recorded in microseconds from many threads without locks: each report takes the
 * interval since the last one and adds it to the run's total.
 */
final class LatencyStats {

    private final Recorder recorder = new Recorder(3);
    private final Histogram total = new Histogram(3);
    private Histogram interval;

    void recordNanos(long nanos) {
        recorder.recordValue(Math.max(0, nanos / 1_000));
    }

    /** Closes the current interval: what {@link #interval()} shows until the next call. */
    synchronized void roll() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
    }

    synchronized String interval() {
        return describe(interval, false);
    }

    synchronized String total() {
        return describe(total, true);
    }

    synchronized String totalJson() {
        return String.format(Locale.ROOT, "{\"count\":%d,\"avg\":%.3f,\"p50\":%.3f,\"p99\":%.3f,\"p999\":%.3f,\"max\":%.3f}",
                total.getTotalCount(), total.getMean() / 1000, ms(total, 50), ms(total, 99), ms(total, 99.9),
                total.getMaxValue() / 1000.0);
    }

    private static String describe(Histogram h, boolean full) {
        if (h == null || h.getTotalCount() == 0) {
            return "n/a";
        }
        return full
                ? String.format(Locale.ROOT, "avg %.1f p50 %.1f p95 %.1f p99 %.1f p99.9 %.1f max %.1f", h.getMean() / 1000,
                        ms(h, 50), ms(h, 95), ms(h, 99), ms(h, 99.9), h.getMaxValue() / 1000.0)
                : String.format(Locale.ROOT, "p50 %.1f p99 %.1f max %.1f", ms(h, 50), ms(h, 99), h.getMaxValue() / 1000.0);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }
}

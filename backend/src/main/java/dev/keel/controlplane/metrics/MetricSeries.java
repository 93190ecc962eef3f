package dev.keel.controlplane.metrics;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Metric time series of an instance, all brokers combined; points are the start of each step. */
record MetricSeries(UUID instanceId, Instant from, Instant to, int step, List<Series> series) {

    record Series(String name, String unit, List<Point> points) {
    }

    record Point(Instant t, double v) {
    }
}

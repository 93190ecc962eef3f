package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An organization's metered usage over {@code [from, to)}: each instance's capacity periods clipped to the window,
 * and the AKU-hours they add up to (AKU × hours run, to the thousandth).
 */
record Usage(Instant from, Instant to, double akuHours, List<InstanceUsage> instances) {

    record InstanceUsage(UUID instanceId, String name, double akuHours, List<Period> periods) {
    }

    /** {@code to} is where the period ends within the window; {@code running}: it has not ended yet. */
    record Period(int aku, Instant from, Instant to, boolean running) {
    }

    /** Open periods count until {@code now}, never into the future. */
    static Usage of(List<CapacityLedger.Period> periods, Instant from, Instant to, Instant now) {
        Instant end = to.isAfter(now) ? now : to;
        Map<UUID, List<Period>> byInstance = new LinkedHashMap<>();
        Map<UUID, String> names = new LinkedHashMap<>();
        for (CapacityLedger.Period p : periods) {
            Instant start = p.startedAt().isBefore(from) ? from : p.startedAt();
            Instant stop = p.endedAt() == null || p.endedAt().isAfter(end) ? end : p.endedAt();
            if (stop.isAfter(start)) {
                names.put(p.instanceId(), p.instanceName());
                byInstance.computeIfAbsent(p.instanceId(), id -> new ArrayList<>())
                        .add(new Period(p.aku(), start, stop, p.endedAt() == null));
            }
        }
        List<InstanceUsage> instances = new ArrayList<>();
        double total = 0;
        for (var entry : byInstance.entrySet()) {
            double hours = entry.getValue().stream().mapToDouble(Usage::akuHours).sum();
            total += hours;
            instances.add(new InstanceUsage(entry.getKey(), names.get(entry.getKey()), round(hours), entry.getValue()));
        }
        return new Usage(from, end, round(total), instances);
    }

    private static double akuHours(Period p) {
        return p.aku() * Duration.between(p.from(), p.to()).toMillis() / 3_600_000.0;
    }

    private static double round(double akuHours) {
        return Math.round(akuHours * 1000) / 1000.0;
    }
}

package dev.keel.controlplane.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.PathIds;

@RestController
class MetricsController {

    private static final Duration DEFAULT_RANGE = Duration.ofHours(1);
    private static final int MAX_POINTS = 1_500;

    private final Instances instances;
    private final MetricsStore store;
    private final Clock clock;

    MetricsController(Instances instances, MetricsStore store, Clock clock) {
        this.instances = instances;
        this.store = store;
        this.clock = clock;
    }

    @GetMapping("/api/v1/instances/{instanceId:" + PathIds.UUID + "}/metrics")
    MetricSeries metrics(Caller caller, @PathVariable UUID instanceId,
                         @RequestParam(required = false) String names,
                         @RequestParam(required = false) Instant from,
                         @RequestParam(required = false) Instant to,
                         @RequestParam(required = false) Integer step) {
        instances.get(caller.organizationId(), instanceId);
        Instant end = to == null ? clock.instant() : to;
        Instant start = from == null ? end.minus(DEFAULT_RANGE) : from;
        if (!start.isBefore(end)) {
            throw ApiException.validation("from", "must be before to");
        }
        List<BrokerMetric> metrics = parse(names);
        int resolution = Retention.resolutionFor(start, clock.instant());
        long rangeSeconds = Duration.between(start, end).toSeconds();
        int effectiveStep = step == null ? (int) Math.max(resolution, ceilTo(rangeSeconds / 360, resolution)) : step;
        if (effectiveStep < resolution || effectiveStep % resolution != 0) {
            throw ApiException.validation("step", "must be a multiple of " + resolution
                    + " seconds for data from " + start + " (kept at that resolution)");
        }
        if (rangeSeconds / effectiveStep > MAX_POINTS) {
            throw ApiException.validation("step", "gives more than " + MAX_POINTS + " points; use a step of at least "
                    + ceilTo(rangeSeconds / MAX_POINTS, resolution) + " seconds");
        }
        Map<String, List<MetricSeries.Point>> points = new LinkedHashMap<>();
        metrics.forEach(m -> points.put(m.wireName, new ArrayList<>()));
        for (MetricsStore.Point point : store.query(instanceId, new ArrayList<>(points.keySet()), start, end, resolution, effectiveStep)) {
            points.get(point.name()).add(new MetricSeries.Point(point.time(), point.value()));
        }
        return new MetricSeries(instanceId, start, end, effectiveStep, metrics.stream()
                .map(m -> new MetricSeries.Series(m.wireName, m.unit, points.get(m.wireName))).toList());
    }

    private static List<BrokerMetric> parse(String names) {
        if (names == null || names.isBlank()) {
            return List.of(BrokerMetric.values());
        }
        List<BrokerMetric> metrics = new ArrayList<>();
        for (String name : names.split(",")) {
            metrics.add(BrokerMetric.byWireName(name.trim()).orElseThrow(() -> ApiException.validation("names",
                    "'" + name.trim() + "' is not a metric; choose from "
                            + Arrays.stream(BrokerMetric.values()).map(m -> m.wireName).toList())));
        }
        return metrics;
    }

    private static long ceilTo(long value, int multiple) {
        return Math.max(multiple, (value + multiple - 1) / multiple * multiple);
    }
}

package dev.keel.controlplane.estimates;

import java.util.List;

/** Monthly cloud cost of a spec, next to self-managed Apache Kafka carrying the same workload. */
public record CostEstimate(String currency, int catalogVersion, String region, Workload workload, Breakdown diskless,
                           Breakdown selfManagedKafka, double savingsPercent) {

    public record Breakdown(List<Line> lines, double totalMonthlyUsd) {
    }

    public record Line(String item, String description, double quantity, String unit, double monthlyUsd) {
    }
}

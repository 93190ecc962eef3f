package dev.keel.controlplane.estimates;

import java.util.List;

/**
 * Monthly cloud cost of a spec, next to self-managed Apache Kafka carrying the same workload, and the product's own
 * fee: {@code savingsPercent} compares the cloud bills alone, {@code savingsPercentWithServiceFee} adds the fee to the
 * diskless side.
 */
public record CostEstimate(String currency, int catalogVersion, String region, Workload workload, Breakdown diskless,
                           Line serviceFee, Breakdown selfManagedKafka, double savingsPercent,
                           double savingsPercentWithServiceFee) {

    public record Breakdown(List<Line> lines, double totalMonthlyUsd) {
    }

    public record Line(String item, String description, double quantity, String unit, double monthlyUsd) {
    }
}

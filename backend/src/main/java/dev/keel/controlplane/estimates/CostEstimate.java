package dev.keel.controlplane.estimates;

import java.util.List;

/**
 * Monthly cloud cost of a spec, next to self-managed Apache Kafka carrying the same workload, and the product's own
 * fee: {@code savingsPercent} compares the cloud bills alone, {@code savingsPercentWithServiceFee} adds the fee to the
 * diskless side. {@code assumptions} states everything the figures rest on, so they can be checked against a
 * published comparison that assumes otherwise.
 */
public record CostEstimate(String currency, int catalogVersion, String region, Workload workload,
                           List<Assumption> assumptions, Breakdown diskless, Line serviceFee, Breakdown selfManagedKafka,
                           double savingsPercent, double savingsPercentWithServiceFee) {

    /** {@code value} as the request would give it, or the model's figure in words a person can compare. */
    public record Assumption(String name, String value, Source source, String statement) {
    }

    public enum Source {
        /** The caller gave it. */
        REQUEST,
        /** The caller could have given it and did not. */
        DEFAULT,
        /** The catalog's cost model fixes it. */
        MODEL
    }

    public record Breakdown(List<Line> lines, double totalMonthlyUsd) {
    }

    public record Line(String item, String description, double quantity, String unit, double monthlyUsd) {
    }
}

package dev.keel.controlplane.estimates;

/**
 * The traffic an estimate prices: sustained write and read rates and how long data is kept. The
 * rates are bounded so every figure of an estimate stays a finite, meaningful number.
 */
public record Workload(Double writeMiBps, Double readMiBps, Integer retentionHours) {

    /** About 100 GiB/s, ten times what the largest instance the catalog offers can take. */
    static final double MAX_MIBPS = 100_000;
    static final int MAX_RETENTION_HOURS = 8760;
}

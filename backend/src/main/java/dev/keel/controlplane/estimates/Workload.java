package dev.keel.controlplane.estimates;

/** The traffic an estimate prices: sustained write and read rates and how long data is kept. */
public record Workload(Double writeMiBps, Double readMiBps, Integer retentionHours) {
}

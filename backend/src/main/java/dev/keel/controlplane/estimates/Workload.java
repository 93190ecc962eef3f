package dev.keel.controlplane.estimates;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The traffic an estimate prices: sustained write and read rates and how long data is kept. The
 * rates are bounded so every figure of an estimate stays a finite, meaningful number.
 */
public record Workload(Double writeMiBps, Double readMiBps, Integer retentionHours) {

    /** About 100 GiB/s, ten times what the largest instance the catalog offers can take. */
    static final double MAX_MIBPS = 100_000;
    static final int MAX_RETENTION_HOURS = 8760;

    static final String WRITE_MIBPS = "writeMiBps";
    static final String READ_MIBPS = "readMiBps";
    static final String RETENTION_HOURS = "retentionHours";

    /** The names of the figures this workload gives (null ones take the spec's defaults). */
    Set<String> given() {
        Set<String> given = new LinkedHashSet<>();
        if (writeMiBps != null) {
            given.add(WRITE_MIBPS);
        }
        if (readMiBps != null) {
            given.add(READ_MIBPS);
        }
        if (retentionHours != null) {
            given.add(RETENTION_HOURS);
        }
        return given;
    }
}

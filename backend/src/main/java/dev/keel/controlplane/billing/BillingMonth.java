package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;

/** The calendar month (UTC) an instant falls in, {@code [from, to)}: the period budgets and usage default to. */
record BillingMonth(Instant from, Instant to) {

    static BillingMonth of(Instant at) {
        var start = at.atOffset(ZoneOffset.UTC).with(TemporalAdjusters.firstDayOfMonth()).truncatedTo(ChronoUnit.DAYS);
        return new BillingMonth(start.toInstant(), start.plusMonths(1).toInstant());
    }

    /** Hours from {@code now} to the month's end. */
    double hoursLeft(Instant now) {
        return Duration.between(now, to).toMillis() / 3_600_000.0;
    }
}

package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HourlyUsageTest {

    private static final Instant HOUR = Instant.parse("2026-11-25T10:00:00Z");
    private static final Instant LONG_AGO = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aWholeHourCountsEachInstancesAku() {
        List<CapacityLedger.Period> periods = List.of(period(3, LONG_AGO, null), period(6, LONG_AGO, null));

        assertThat(HourlyUsage.akuHours(periods, HOUR, LONG_AGO, null)).isEqualTo(9);
    }

    @Test
    void aScaleWithinTheHourCountsEachCapacityForItsPartRoundedToTheNearestAkuHour() {
        // 3 AKU for 20 minutes, then 6 AKU for 40: 1 + 4 = 5.
        List<CapacityLedger.Period> periods = List.of(period(3, LONG_AGO, at(20)), period(6, at(20), null));
        assertThat(HourlyUsage.akuHours(periods, HOUR, LONG_AGO, null)).isEqualTo(5);

        // 3 AKU for 10 minutes is half an AKU-hour: a half rounds up; 9 minutes (0.45) rounds down.
        assertThat(HourlyUsage.akuHours(List.of(period(3, at(50), null)), HOUR, LONG_AGO, null)).isEqualTo(1);
        assertThat(HourlyUsage.akuHours(List.of(period(3, at(51), null)), HOUR, LONG_AGO, null)).isZero();
    }

    @Test
    void anIdleHourIsZero() {
        List<CapacityLedger.Period> periods = List.of(period(6, LONG_AGO, HOUR), period(6, at(60), null));

        assertThat(HourlyUsage.akuHours(periods, HOUR, LONG_AGO, null)).isZero();
        assertThat(HourlyUsage.akuHours(List.of(), HOUR, LONG_AGO, null)).isZero();
    }

    @Test
    void onlyTheSubscriptionsOwnTimeCounts() {
        List<CapacityLedger.Period> periods = List.of(period(6, LONG_AGO, null));

        assertThat(HourlyUsage.akuHours(periods, HOUR, at(30), null)).as("linked at half past").isEqualTo(3);
        assertThat(HourlyUsage.akuHours(periods, HOUR, LONG_AGO, at(15))).as("ended at a quarter past")
                .isEqualTo(2);
    }

    @Test
    void retriesBackOffFromHalfAMinuteToHalfAnHour() {
        assertThat(MeteringRun.backoff(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(MeteringRun.backoff(3)).isEqualTo(Duration.ofMinutes(2));
        assertThat(MeteringRun.backoff(50)).isEqualTo(Duration.ofMinutes(30));
    }

    private static Instant at(int minute) {
        return HOUR.plus(Duration.ofMinutes(minute));
    }

    private static CapacityLedger.Period period(int aku, Instant from, Instant to) {
        return new CapacityLedger.Period(UUID.randomUUID(), "kafka", aku, from, to);
    }
}

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
    private static final List<HourlyUsage.Window> ALWAYS = List.of(new HourlyUsage.Window(LONG_AGO, null));
    private static final long AKU_MINUTE = 60_000;

    @Test
    void aWholeHourCountsEachInstancesAku() {
        List<CapacityLedger.Period> periods = List.of(period(3, LONG_AGO, null), period(6, LONG_AGO, null));

        assertThat(HourlyUsage.akuMillis(periods, HOUR, ALWAYS)).isEqualTo(9 * 60 * AKU_MINUTE);
    }

    @Test
    void aScaleWithinTheHourCountsEachCapacityForItsPart() {
        // 3 AKU for 20 minutes, then 6 AKU for 40.
        List<CapacityLedger.Period> periods = List.of(period(3, LONG_AGO, at(20)), period(6, at(20), null));

        assertThat(HourlyUsage.akuMillis(periods, HOUR, ALWAYS)).isEqualTo((3 * 20 + 6 * 40) * AKU_MINUTE);
    }

    @Test
    void anInstanceAcrossTheHoursEndIsBilledEveryMinuteItRan() {
        // 1 AKU from 10:31 to 11:29: 29 AKU-minutes in each hour, where whole AKU-hours per hour billed 0 and 0.
        List<CapacityLedger.Period> periods = List.of(period(1, at(31), at(89)));
        HourlyUsage.AkuMinutes first = HourlyUsage.akuMinutes(HourlyUsage.akuMillis(periods, HOUR, ALWAYS), 0);
        HourlyUsage.AkuMinutes second = HourlyUsage.akuMinutes(
                HourlyUsage.akuMillis(periods, HOUR.plus(HourlyUsage.HOUR), ALWAYS), first.carry());

        assertThat(first).isEqualTo(new HourlyUsage.AkuMinutes(29, 0));
        assertThat(second).isEqualTo(new HourlyUsage.AkuMinutes(29, 0));
    }

    @Test
    void whatIsBelowAWholeAkuMinuteIsCarriedIntoTheNextHour() {
        // 1 AKU for 40 s, 70 s and 50 s in three hours: 0, then 1 (40 + 70 = 110 s), then 1 (50 + 50 = 100 s).
        HourlyUsage.AkuMinutes first = HourlyUsage.akuMinutes(40_000, 0);
        HourlyUsage.AkuMinutes second = HourlyUsage.akuMinutes(70_000, first.carry());
        HourlyUsage.AkuMinutes third = HourlyUsage.akuMinutes(50_000, second.carry());

        assertThat(List.of(first, second, third)).containsExactly(new HourlyUsage.AkuMinutes(0, 40_000),
                new HourlyUsage.AkuMinutes(1, 50_000), new HourlyUsage.AkuMinutes(1, 40_000));
    }

    @Test
    void anIdleHourIsZero() {
        List<CapacityLedger.Period> periods = List.of(period(6, LONG_AGO, HOUR), period(6, at(60), null));

        assertThat(HourlyUsage.akuMillis(periods, HOUR, ALWAYS)).isZero();
        assertThat(HourlyUsage.akuMillis(List.of(), HOUR, ALWAYS)).isZero();
    }

    @Test
    void onlyTheSubscriptionsOwnTimeCountsAndTimeWithinTwoOfThemOnce() {
        List<CapacityLedger.Period> periods = List.of(period(6, LONG_AGO, null));

        assertThat(HourlyUsage.akuMillis(periods, HOUR, List.of(new HourlyUsage.Window(at(30), null))))
                .as("linked at half past").isEqualTo(6 * 30 * AKU_MINUTE);
        assertThat(HourlyUsage.akuMillis(periods, HOUR, List.of(new HourlyUsage.Window(LONG_AGO, at(15)))))
                .as("ended at a quarter past").isEqualTo(6 * 15 * AKU_MINUTE);
        assertThat(HourlyUsage.akuMillis(periods, HOUR, List.of(new HourlyUsage.Window(LONG_AGO, at(20)),
                new HourlyUsage.Window(at(40), null)))).as("ended at 20 past, subscribed again at 40 past")
                .isEqualTo(6 * 40 * AKU_MINUTE);
        assertThat(HourlyUsage.akuMillis(periods, HOUR, List.of(new HourlyUsage.Window(LONG_AGO, at(30)),
                new HourlyUsage.Window(at(20), null)))).as("two that overlap").isEqualTo(6 * 60 * AKU_MINUTE);
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

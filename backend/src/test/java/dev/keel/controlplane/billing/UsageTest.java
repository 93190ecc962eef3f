package dev.keel.controlplane.billing;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UsageTest {

    static final UUID ORDERS = UUID.fromString("8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46");
    static final UUID CLICKS = UUID.fromString("1f0c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b");
    static final Instant MONTH = Instant.parse("2026-11-01T00:00:00Z");
    static final Instant NOW = Instant.parse("2026-11-23T00:00:00Z");

    static Instant day(int day, int hour) {
        return MONTH.plusSeconds(((day - 1) * 24L + hour) * 3600);
    }

    @Test
    void periodsAreClippedToTheWindowAndOpenOnesRunUntilNow() {
        List<CapacityLedger.Period> periods = List.of(
                // Created last month at 3 AKU, scaled to 6 on the 10th at noon, still running.
                new CapacityLedger.Period(ORDERS, "orders", 3, Instant.parse("2026-10-20T00:00:00Z"), day(10, 12)),
                new CapacityLedger.Period(ORDERS, "orders", 6, day(10, 12), null),
                // 4 AKU for 30 minutes on the 2nd.
                new CapacityLedger.Period(CLICKS, "clicks", 4, day(2, 0), day(2, 0).plusSeconds(1800)));

        Usage usage = Usage.of(periods, MONTH, Instant.parse("2026-12-01T00:00:00Z"), NOW);

        assertThat(usage.to()).as("not into the future").isEqualTo(NOW);
        Usage.InstanceUsage orders = usage.instances().get(0);
        // 3 AKU × 228 h (the 1st to the 10th noon) + 6 AKU × 300 h (to the 23rd).
        assertThat(orders.akuHours()).isEqualTo(3 * 228 + 6 * 300);
        assertThat(orders.periods()).extracting(Usage.Period::from).containsExactly(MONTH, day(10, 12));
        assertThat(orders.periods()).extracting(Usage.Period::running).containsExactly(false, true);
        assertThat(usage.instances().get(1).akuHours()).isEqualTo(2.0);
        assertThat(usage.akuHours()).isEqualTo(3 * 228 + 6 * 300 + 2.0);
    }

    @Test
    void periodsOutsideTheWindowCountNothing() {
        List<CapacityLedger.Period> periods = List.of(
                new CapacityLedger.Period(ORDERS, "orders", 3, day(1, 0), day(2, 0)));
        Usage usage = Usage.of(periods, day(5, 0), day(6, 0), NOW);
        assertThat(usage.instances()).isEmpty();
        assertThat(usage.akuHours()).isZero();
    }

    @Test
    void akuHoursAreGivenToTheThousandth() {
        List<CapacityLedger.Period> periods = List.of(
                new CapacityLedger.Period(ORDERS, "orders", 3, day(1, 0), day(1, 0).plusSeconds(10)));
        assertThat(Usage.of(periods, MONTH, NOW, NOW).akuHours()).isEqualTo(0.008);
    }
}

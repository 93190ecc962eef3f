package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class BrokerRestartScheduleTest {

    static final Instant RENEWED = Instant.parse("2027-02-01T00:00:00Z");
    static final Instant OLD_EXPIRY = RENEWED.plus(Duration.ofDays(30));

    @Test
    void everyBrokerRestartsInTheFirstHalfOfWhatIsLeftOfItsOldCertificate() {
        for (int node = 0; node < 100; node++) {
            Instant at = BrokerRestartSchedule.restartAt(RENEWED, OLD_EXPIRY, node);
            assertThat(at).as("node %d", node).isAfter(RENEWED).isBefore(RENEWED.plus(Duration.ofDays(15)));
        }
    }

    @Test
    void consecutiveNodesRestartAtLeastADayApartWithThirtyDaysLeft() {
        Set<Instant> slots = new HashSet<>();
        for (int node = 0; node < BrokerRestartSchedule.SLOTS; node++) {
            slots.add(BrokerRestartSchedule.restartAt(RENEWED, OLD_EXPIRY, node));
        }
        assertThat(slots).hasSize(BrokerRestartSchedule.SLOTS);
        Instant first = BrokerRestartSchedule.restartAt(RENEWED, OLD_EXPIRY, 0);
        Instant second = BrokerRestartSchedule.restartAt(RENEWED, OLD_EXPIRY, 1);
        assertThat(Duration.between(first, second)).isGreaterThan(Duration.ofHours(20));
    }

    @Test
    void aBrokerWhoseOldCertificateHasExpiredRestartsAtOnce() {
        assertThat(BrokerRestartSchedule.restartAt(RENEWED, RENEWED.minusSeconds(1), 5)).isEqualTo(RENEWED);
    }
}

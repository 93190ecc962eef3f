package dev.keel.controlplane.identity;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.MovingClock;

import static org.assertj.core.api.Assertions.assertThat;

class FailedAuthenticationsTest {

    private final MovingClock clock = new MovingClock(Instant.parse("2026-11-28T12:00:00Z"));
    private final FailedAuthentications failures = new FailedAuthentications(3, Duration.ofMinutes(1), clock);

    @Test
    void anAddressRefusedTooOftenWaitsUntilTheWindowItsFirstRefusalOpenedCloses() {
        failures.record("192.0.2.1");
        clock.advance(Duration.ofSeconds(20));
        failures.record("192.0.2.1");
        assertThat(failures.wait("192.0.2.1")).isEmpty();
        failures.record("192.0.2.1");

        assertThat(failures.wait("192.0.2.1")).contains(Duration.ofSeconds(40));
        assertThat(failures.wait("192.0.2.2")).as("another address").isEmpty();
        clock.advance(Duration.ofSeconds(40));
        assertThat(failures.wait("192.0.2.1")).as("the window has closed").isEmpty();
        failures.record("192.0.2.1");
        assertThat(failures.wait("192.0.2.1")).as("a new window, with one refusal").isEmpty();
    }

    @Test
    void whenFullTheAddressesStillWaitingStayTracked() {
        for (int i = 0; i < 3; i++) {
            failures.record("192.0.2.1");
        }
        for (int i = 1; i < FailedAuthentications.CAPACITY; i++) {
            failures.record("10.0." + i / 256 + "." + i % 256);
        }

        failures.record("198.51.100.1");
        failures.record("198.51.100.1");
        failures.record("198.51.100.1");

        assertThat(failures.wait("192.0.2.1")).isPresent();
        assertThat(failures.wait("198.51.100.1")).as("tracked once the others were dropped").isPresent();
    }
}

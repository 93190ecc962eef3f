package dev.keel.provisioner.aws.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.aws.AwsProvisionerSettings;
import dev.keel.provisioner.aws.ObservedState;
import dev.keel.provisioner.aws.Patience;
import dev.keel.provisioner.aws.Waits;

class WaitsTest {

    private static final Patience FILE_SYSTEM = Waits.aws().of(ObservedState.FSX_FILE_SYSTEM);

    @Test
    void pausesGrowWithTheTimeWaitedUpToTheCap() {
        assertThat(FILE_SYSTEM.pause(Duration.ZERO, 1)).isEqualTo(Duration.ofMinutes(2));
        assertThat(FILE_SYSTEM.pause(Duration.ofMinutes(3), 1)).isEqualTo(Duration.ofMinutes(3));
        assertThat(FILE_SYSTEM.pause(Duration.ofMinutes(40), 1)).isEqualTo(Duration.ofMinutes(5));
        assertThat(FILE_SYSTEM.pause(Duration.ofMinutes(40), 0.01)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aWaitResumedAfterARestartLooksAtOnceInsteadOfStartingOver() {
        LongAdder slept = new LongAdder();
        AtomicInteger looks = new AtomicInteger();
        context(slept).await(ObservedState.FSX_FILE_SYSTEM, "a file system", Instant.now().minus(Duration.ofMinutes(20)),
                () -> looks.incrementAndGet() > 0);
        assertThat(looks).hasValue(1);
        assertThat(slept.sum()).as("no pause before the first look").isZero();
    }

    @Test
    void aNewWaitFirstLooksAfterTheFirstPause() {
        LongAdder slept = new LongAdder();
        context(slept).await(ObservedState.FSX_FILE_SYSTEM, "a file system", null, () -> true);
        Duration first = FILE_SYSTEM.pause(Duration.ZERO, SCALE);
        assertThat(Duration.ofNanos(slept.sum())).as("the first pause, less the instant it took to start waiting")
                .isBetween(first.minusMillis(10), first);
    }

    @Test
    void aWaitPastItsLimitGivesUpNamingIt() {
        Instant longAgo = Instant.now().minus(FILE_SYSTEM.limit()).minusSeconds(1);
        assertThatThrownBy(() -> context(new LongAdder()).await(ObservedState.FSX_FILE_SYSTEM, "wal-fs-0", longAgo,
                () -> false)).isInstanceOfSatisfying(ProvisioningException.class, e -> {
                    assertThat(e.retryable()).isTrue();
                    assertThat(e.getMessage()).contains("wal-fs-0", "allowed for a fsx-file-system");
                });
    }

    private static final double SCALE = 0.001;

    private static StepContext context(LongAdder slept) {
        AwsProvisionerSettings settings = AwsProvisionerSettings.defaults().withWaits(Waits.aws().scaled(SCALE))
                .withClock(Clock.systemUTC());
        return new StepContext(null, null, List.of(), ObservedState.NOTHING, types -> List.of(), settings, slept);
    }
}

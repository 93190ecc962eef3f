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
import dev.keel.provisioner.StepRun;
import dev.keel.provisioner.StepRuns;
import dev.keel.provisioner.StepWaiting;
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

    @Test
    void aPauseLongerThanTheRunMayTakeEndsTheRunToLookAgainLater() {
        LongAdder slept = new LongAdder();
        Instant began = Instant.now().minus(Duration.ofMinutes(3));
        AtomicInteger looks = new AtomicInteger();
        StepRun run = run(Duration.ofMillis(1), null);
        assertThatThrownBy(() -> context(slept, run, 1).await(ObservedState.FSX_FILE_SYSTEM, "wal-fs-0", began,
                () -> looks.incrementAndGet() > 1)).isInstanceOfSatisfying(StepWaiting.class, w -> {
                    assertThat(w.what()).isEqualTo("wal-fs-0");
                    assertThat(w.since()).as("anchored where the wait began").isEqualTo(began);
                    assertThat(Duration.between(Instant.now(), w.nextLook()))
                            .as("a pause as long as the three minutes waited").isBetween(Duration.ofSeconds(170), Duration.ofSeconds(181));
                });
        assertThat(looks).as("looked once, then left the thread").hasValue(1);
        assertThat(slept.sum()).isZero();
    }

    @Test
    void aRunPausesItsThreadForItsWaitsOnlyAsLongAsItMayInAll() {
        StepRun budgeted = StepRuns.of(Duration.ofMillis(250), null, () -> {
        });
        Instant now = Instant.now();
        budgeted.pause(Duration.ofMillis(100), "brokers", now, now);
        budgeted.pause(Duration.ofMillis(100), "brokers", now, now);
        assertThatThrownBy(() -> budgeted.pause(Duration.ofMillis(100), "brokers", now, now))
                .as("each pause short, together longer than the run may").isInstanceOf(StepWaiting.class);
    }

    @Test
    void aWaitWithoutAnAnchorOfAwssCarriesOnFromWhenAnEarlierRunBeganIt() {
        Instant began = Instant.now().minus(FILE_SYSTEM.limit()).minusSeconds(1);
        assertThatThrownBy(() -> context(new LongAdder(), run(Duration.ofDays(1), began), SCALE)
                .await(ObservedState.FSX_FILE_SYSTEM, "wal-fs-0", null, () -> false))
                .isInstanceOfSatisfying(ProvisioningException.class, e -> assertThat(e.code()).isEqualTo("NOT_READY"));
    }

    private static final double SCALE = 0.001;

    private static StepContext context(LongAdder slept) {
        return context(slept, StepRun.INLINE, SCALE);
    }

    private static StepContext context(LongAdder slept, StepRun run, double scale) {
        AwsProvisionerSettings settings = AwsProvisionerSettings.defaults().withWaits(Waits.aws().scaled(scale))
                .withClock(Clock.systemUTC());
        return new StepContext(null, null, List.of(), ObservedState.NOTHING, types -> List.of(), settings, slept, run);
    }

    private static StepRun run(Duration inlinePause, Instant since) {
        return StepRuns.of(inlinePause, since, () -> {
        });
    }
}

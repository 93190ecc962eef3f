package dev.keel.provisioner;

import java.time.Duration;
import java.time.Instant;

/** Runs of a step as the tests drive a driver with them. */
public final class StepRuns {

    private StepRuns() {
    }

    /**
     * A run that may pause its thread {@code inlinePause} in all, asks {@code fence} before every change to the cloud,
     * and whose earlier run began waiting, for whatever it waits, at {@code since} (null: none did).
     */
    public static StepRun of(Duration inlinePause, Instant since, Runnable fence) {
        return new StepRun() {
            private Duration left = inlinePause;

            @Override
            public void beforeCloudChange() {
                fence.run();
            }

            @Override
            public Instant waitingSince(String what) {
                return since;
            }

            @Override
            public Duration inlinePauseLeft() {
                return left;
            }

            @Override
            public void pausedInline(Duration pause) {
                left = left.minus(pause);
            }
        };
    }
}

package dev.keel.provisioner;

import java.time.Duration;
import java.time.Instant;

/**
 * One run of a step, as the caller of a driver holds it. A control plane with several workers may take a step from a
 * worker it believes dead while that worker still runs (a long pause, a lost database): before every change to the
 * cloud the driver asks {@link #beforeCloudChange()}, which throws {@link StaleStep} once the run no longer holds the
 * step. And a step that waits for the cloud does not keep its thread for the whole wait: once its waits have paused
 * the thread as long as the run may ({@link #inlinePauseLeft()}), the next pause ends the run with
 * {@link StepWaiting}, to be run again when the pause is over, the wait anchored where it began
 * ({@link #waitingSince(String)}).
 */
public interface StepRun {

    /** A run that holds its step for good and waits in the calling thread however long: tools and tests driving a driver. */
    StepRun INLINE = new StepRun() {
        @Override
        public void beforeCloudChange() {
        }

        @Override
        public Instant waitingSince(String what) {
            return null;
        }

        @Override
        public Duration inlinePauseLeft() {
            return Duration.ofDays(365);
        }

        @Override
        public void pausedInline(Duration pause) {
        }
    };

    /** Throws {@link StaleStep} when this run no longer holds its step: it must change nothing more. */
    void beforeCloudChange();

    /** When an earlier run of the step began waiting for {@code what}, or null when none was waiting for it. */
    Instant waitingSince(String what);

    /** How long this run may still pause in its thread, all its waits' pauses together. */
    Duration inlinePauseLeft();

    /** This run paused its thread for {@code pause}. */
    void pausedInline(Duration pause);

    /**
     * Pauses a wait for {@code what}, begun at {@code since}, for {@code pause} from {@code now}: in the calling thread
     * while the run may still pause that long, else by ending the run to look again then.
     */
    default void pause(Duration pause, String what, Instant since, Instant now) {
        if (pause.compareTo(inlinePauseLeft()) > 0) {
            throw new StepWaiting(what, since, now.plus(pause));
        }
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProvisioningException("INTERRUPTED", "Interrupted while waiting for " + what, true);
        }
        pausedInline(pause);
    }
}

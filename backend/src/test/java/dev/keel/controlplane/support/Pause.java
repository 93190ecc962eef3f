package dev.keel.controlplane.support;

import java.time.Duration;

/** A pause between two looks of a test's polling loop, for callers that cannot throw {@link InterruptedException}. */
public final class Pause {

    private Pause() {
    }

    /** Sleeps {@code duration}; an interrupt ends the caller's loop with an unchecked exception, the flag kept. */
    public static void of(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

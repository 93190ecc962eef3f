package dev.keel.provisioner;

import java.time.Instant;

/**
 * A step is waiting for the cloud ({@code what}, since {@code since}) and looks again at {@code nextLook}: its run ends
 * here and the step is run again then, from the start. Steps are idempotent, so the new run observes what the earlier
 * one did and goes on waiting where it was.
 */
public final class StepWaiting extends RuntimeException {

    private final String what;
    private final Instant since;
    private final Instant nextLook;

    public StepWaiting(String what, Instant since, Instant nextLook) {
        super("Waiting for " + what + " since " + since + "; looking again at " + nextLook, null, false, false);
        this.what = what;
        this.since = since;
        this.nextLook = nextLook;
    }

    public String what() {
        return what;
    }

    public Instant since() {
        return since;
    }

    public Instant nextLook() {
        return nextLook;
    }
}

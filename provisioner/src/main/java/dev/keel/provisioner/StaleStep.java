package dev.keel.provisioner;

/** The run of a step lost it to another worker: it stops before changing anything more. */
public final class StaleStep extends RuntimeException {

    public StaleStep(String message) {
        super(message);
    }
}

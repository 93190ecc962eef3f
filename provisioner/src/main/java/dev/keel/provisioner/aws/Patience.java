package dev.keel.provisioner.aws;

import java.time.Duration;

/**
 * How patiently one kind of AWS lifecycle is awaited: the first look after {@code first}, then each pause as long as
 * the wait so far (an exponential backoff) but never longer than {@code cap}; after {@code limit} the wait gives up.
 * The pause is a function of the time waited alone, so a wait resumed after a restart, anchored where it began, goes
 * on where it was.
 */
public record Patience(Duration first, Duration cap, Duration limit) {

    /** The pause before the next look, {@code waited} into the wait, with {@code scale} applied to first and cap. */
    public Duration pause(Duration waited, double scale) {
        Duration scaledFirst = scale(first, scale);
        Duration scaledCap = scale(cap, scale);
        Duration pause = waited.compareTo(scaledFirst) < 0 ? scaledFirst : waited;
        return pause.compareTo(scaledCap) > 0 ? scaledCap : pause;
    }

    private static Duration scale(Duration value, double factor) {
        return Duration.ofNanos(Math.max(1_000_000L, (long) (value.toNanos() * factor)));
    }
}

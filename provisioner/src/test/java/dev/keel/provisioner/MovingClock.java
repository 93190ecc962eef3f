package dev.keel.provisioner;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves on by hand, for code that takes a {@link Clock}. */
public final class MovingClock extends Clock {

    private Instant now;

    public MovingClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock on by {@code duration}. */
    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneOffset getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}

package io.sluice.content;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told to; thread-safe. */
public final class ManualClock extends Clock {

    private volatile Instant now;

    public ManualClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock forward by {@code duration}. */
    public synchronized void advance(Duration duration) {
        now = now.plus(duration);
    }

    /** Sets the clock to {@code instant}, which may be in its past. */
    public void set(Instant instant) {
        now = instant;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("A manual clock has only UTC");
    }

}

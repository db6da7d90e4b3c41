package io.sluice.content;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Version timestamps in microseconds since the epoch: each write's is taken from the engine's clock, and is strictly
 * greater than the timestamp of the version it replaces ({@link #after}) or, for an engine that writes without
 * reading, than every timestamp the engine handed out before ({@link #monotonic}).
 */
public final class Timestamps {

    private final Clock clock;
    private final AtomicLong last;

    private Timestamps(Clock clock, long floor) {
        this.clock = clock;
        this.last = new AtomicLong(floor);
    }

    /**
     * A source of strictly increasing timestamps from {@code clock}, never at or below {@code floor} (e.g. the newest
     * timestamp an engine finds in its store when it opens), even if the clock steps back.
     */
    public static Timestamps monotonic(Clock clock, long floor) {
        return new Timestamps(clock, floor);
    }

    /** The next timestamp: now, or one more than the previous one handed out, whichever is greater. Thread-safe. */
    public long next() {
        long now = nowMicros(clock);
        return last.accumulateAndGet(now, (previous, current) -> Math.max(previous + 1, current));
    }

    /** Makes every later {@link #next()} greater than {@code timestamp}, e.g. one read from the store. */
    public void observe(long timestamp) {
        last.accumulateAndGet(timestamp, Math::max);
    }

    /** {@code clock}'s now in microseconds since the epoch. */
    public static long nowMicros(Clock clock) {
        Instant now = clock.instant();
        return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
    }

    /** The timestamp for a version replacing {@code previous} (null for none): now, but after {@code previous}'s. */
    public static long after(Clock clock, Version previous) {
        long now = nowMicros(clock);
        return previous == null ? now : Math.max(now, previous.timestamp() + 1);
    }

    /** {@code duration} in microseconds, saturating at {@link Long#MAX_VALUE} (a retention "forever"). */
    public static long micros(Duration duration) {
        try {
            return Math.addExact(Math.multiplyExact(duration.getSeconds(), 1_000_000L), duration.getNano() / 1_000);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

}

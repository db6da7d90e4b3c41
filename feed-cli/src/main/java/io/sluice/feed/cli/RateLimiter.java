package io.sluice.feed.cli;

import java.util.function.LongSupplier;

/**
 * {@code --max-rate}: paces the sender to at most the given operations per second, one every 1/rate seconds on a
 * schedule of its own, so the oversleeping of each pause does not add up. After a stall (the client was full) it sends
 * at most {@value #CATCH_UP_MILLIS} ms of operations at once to get back on schedule, never more. Not thread-safe: the
 * single thread that reads the input calls it.
 */
final class RateLimiter {

    static final long CATCH_UP_MILLIS = 100;

    /** Sleeps the calling thread. */
    interface Sleeper { void sleep(long nanos) throws InterruptedException; }

    private final long intervalNanos;
    private final LongSupplier clock;
    private final Sleeper sleeper;
    private long next;

    RateLimiter(double perSecond, LongSupplier clock, Sleeper sleeper) {
        if ( ! (perSecond > 0)) throw new IllegalArgumentException("Rate must be positive, but was " + perSecond);
        this.intervalNanos = Math.max(1, (long) (1e9 / perSecond));
        this.clock = clock;
        this.sleeper = sleeper;
        this.next = clock.getAsLong();
    }

    static RateLimiter ofSystemClock(double perSecond) {
        return new RateLimiter(perSecond, System::nanoTime, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    /** Waits until the next operation may go. */
    void acquire() throws InterruptedException {
        long now = clock.getAsLong();
        if (next - now > 0) sleeper.sleep(next - now);
        else if (now - next > CATCH_UP_MILLIS * 1_000_000) next = now - CATCH_UP_MILLIS * 1_000_000;
        next += intervalNanos;
    }

}

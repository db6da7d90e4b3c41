package io.sluice.feed;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Half-opens when nothing but failures were seen for {@code grace}, and opens for good after {@code doom}, when set.
 * A success closes it again (unless it is open).
 */
public final class GracePeriodCircuitBreaker implements CircuitBreaker {

    private static final long NEVER = Long.MIN_VALUE;

    private final LongSupplier nanoClock;
    private final long graceNanos;
    private final long doomNanos;
    private final AtomicLong failingSince = new AtomicLong(NEVER);
    private volatile boolean open = false;

    /** Half-opens after {@code grace} of failures; never opens. */
    public GracePeriodCircuitBreaker(Duration grace) { this(System::nanoTime, grace, null); }

    /** Half-opens after {@code grace} of failures; opens after {@code doom} of failures. */
    public GracePeriodCircuitBreaker(Duration grace, Duration doom) { this(System::nanoTime, grace, doom); }

    GracePeriodCircuitBreaker(LongSupplier nanoClock, Duration grace, Duration doom) {
        if (grace.isNegative()) throw new IllegalArgumentException("Grace period must be non-negative, but was " + grace);
        if (doom != null && doom.compareTo(grace) < 0)
            throw new IllegalArgumentException("Doom time must be at least the grace period " + grace + ", but was " + doom);
        this.nanoClock = nanoClock;
        this.graceNanos = grace.toNanos();
        this.doomNanos = doom == null ? Long.MAX_VALUE : doom.toNanos();
    }

    @Override public void success() { failingSince.set(NEVER); }

    @Override public void failure(int status) { failed(); }

    @Override public void failure(Throwable cause) { failed(); }

    private void failed() { failingSince.compareAndSet(NEVER, nanoClock.getAsLong()); }

    @Override public State state() {
        if (open) return State.OPEN;
        long since = failingSince.get();
        if (since == NEVER) return State.CLOSED;
        long failing = nanoClock.getAsLong() - since;
        if (failing > doomNanos) {
            open = true;
            return State.OPEN;
        }
        return failing > graceNanos ? State.HALF_OPEN : State.CLOSED;
    }

}

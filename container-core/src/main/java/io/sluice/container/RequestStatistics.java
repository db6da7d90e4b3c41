package io.sluice.container;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts completed requests and their latency, lock-free, since creation. The health endpoint reports a snapshot.
 */
public final class RequestStatistics {

    /**
     * Totals from {@code from} to {@code to}. Latencies are in nanoseconds; min, max and last are 0 when count is 0.
     */
    public record Snapshot(Instant from, Instant to, long count, long latencySumNanos, long latencyMinNanos,
                           long latencyMaxNanos, long latencyLastNanos) {

        /** Seconds covered, at least one millisecond so rates stay finite. */
        public double seconds() {
            return Math.max(1, to.toEpochMilli() - from.toEpochMilli()) / 1000.0;
        }

        /** Requests per second over the snapshot. */
        public double rate() {
            return count / seconds();
        }

    }

    private final Clock clock;
    private final Instant created;
    private final LongAdder count = new LongAdder();
    private final LongAdder latencySum = new LongAdder();
    private final LongAccumulator latencyMin = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator latencyMax = new LongAccumulator(Math::max, 0);
    private final AtomicLong latencyLast = new AtomicLong();

    public RequestStatistics(Clock clock) {
        this.clock = clock;
        this.created = clock.instant();
    }

    /** Records one completed request that took {@code latencyNanos}. */
    public void record(long latencyNanos) {
        count.increment();
        latencySum.add(latencyNanos);
        latencyMin.accumulate(latencyNanos);
        latencyMax.accumulate(latencyNanos);
        latencyLast.set(latencyNanos);
    }

    /** The totals since creation. */
    public Snapshot snapshot() {
        long n = count.sum();
        return new Snapshot(created, clock.instant(), n, latencySum.sum(), n == 0 ? 0 : latencyMin.get(),
                            latencyMax.get(), latencyLast.get());
    }

}

package io.sluice.container;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
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
    private final LatencyHistogram histogram = new LatencyHistogram(); // also the count, sum, min and max
    private final AtomicLong latencyLast = new AtomicLong();
    private final LongAdder[] statusClasses = { new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder() };

    public RequestStatistics(Clock clock) {
        this.clock = clock;
        this.created = clock.instant();
    }

    /** Records one completed request that took {@code latencyNanos} and answered {@code status} (1xx–5xx). */
    public void record(long latencyNanos, int status) {
        if (status >= 100 && status < 600)
            statusClasses[status / 100 - 1].increment();
        record(latencyNanos);
    }

    /** Responses with status {@code n}xx so far, for {@code n} in 1–5. */
    public long statusClassCount(int n) {
        if (n < 1 || n > 5)
            throw new IllegalArgumentException("status class must be in [1, 5], but was " + n);
        return statusClasses[n - 1].sum();
    }

    /** The latency below which {@code quantile} of the requests completed, in nanoseconds, to about 19 %. */
    public double latencyPercentileNanos(double quantile) {
        return histogram.percentileNanos(quantile);
    }

    /** Records one completed request that took {@code latencyNanos}. */
    public void record(long latencyNanos) {
        histogram.record(latencyNanos);
        latencyLast.lazySet(latencyNanos); // no fence: a report reads it long after
    }

    /** The totals since creation. */
    public Snapshot snapshot() {
        long n = histogram.count();
        return new Snapshot(created, clock.instant(), n, histogram.sumNanos(), n == 0 ? 0 : histogram.minNanos(),
                            histogram.maxNanos(), latencyLast.get());
    }

}

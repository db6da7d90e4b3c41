package io.sluice.container;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Latencies in logarithmic buckets (about 19 % wide, from 1 µs to over an hour), lock-free: count, sum, max and
 * percentiles accurate to a bucket. Percentiles report the upper bound of the bucket holding that rank.
 */
public final class LatencyHistogram {

    private static final int BUCKETS = 128;
    private static final double GROWTH = 1.1892071150027210; // 2^(1/4)
    private static final double FIRST_NANOS = 1_000;

    private final LongAdder[] buckets = new LongAdder[BUCKETS]; // striped under contention, as the sum is
    private final LongAdder sum = new LongAdder();
    private final AtomicLong max = new AtomicLong(); // written only when a latency exceeds it: rarely, once warm
    private final AtomicLong min = new AtomicLong(Long.MAX_VALUE); // likewise

    public LatencyHistogram() {
        Arrays.setAll(buckets, __ -> new LongAdder());
    }

    /** Records one latency. */
    public void record(long nanos) {
        long value = Math.max(0, nanos);
        buckets[bucket(value)].increment();
        sum.add(value);
        for (long seen = max.get(); value > seen && !max.compareAndSet(seen, value); seen = max.get()) { }
        for (long seen = min.get(); value < seen && !min.compareAndSet(seen, value); seen = min.get()) { }
    }

    private static final double QUARTER = Math.pow(2, 0.25), HALF = Math.pow(2, 0.5), THREE_QUARTERS = Math.pow(2, 0.75);

    /** {@code ceil(4 log2(nanos / 1 µs))}, capped: from the binary exponent and three comparisons, no logarithm. */
    static int bucket(long nanos) {
        if (nanos <= FIRST_NANOS)
            return 0;
        double ratio = nanos / FIRST_NANOS;
        int exponent = Math.getExponent(ratio);
        double mantissa = ratio / Math.scalb(1.0, exponent); // [1, 2)
        int quarters = mantissa == 1.0 ? 0 : mantissa <= QUARTER ? 1 : mantissa <= HALF ? 2 : mantissa <= THREE_QUARTERS ? 3 : 4;
        return Math.min(BUCKETS - 1, 4 * exponent + quarters);
    }

    static double upperBoundNanos(int bucket) {
        return FIRST_NANOS * Math.pow(GROWTH, bucket);
    }

    public long count() {
        long count = 0;
        for (LongAdder bucket : buckets)
            count += bucket.sum();
        return count;
    }

    public long sumNanos() {
        return sum.sum();
    }

    public long maxNanos() {
        return max.get();
    }

    /** The smallest latency recorded; {@link Long#MAX_VALUE} if none. */
    public long minNanos() {
        return min.get();
    }

    /** The latency below which {@code quantile} (0–1) of the recorded ones are, in nanoseconds; 0 if none. */
    public double percentileNanos(double quantile) {
        long total = 0;
        long[] copy = new long[BUCKETS];
        for (int i = 0; i < BUCKETS; i++) {
            copy[i] = buckets[i].sum();
            total += copy[i];
        }
        if (total == 0)
            return 0;
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += copy[i];
            if (seen >= rank)
                return Math.min(upperBoundNanos(i), maxNanos());
        }
        return maxNanos();
    }

}

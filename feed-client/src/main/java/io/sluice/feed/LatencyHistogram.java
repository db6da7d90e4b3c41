package io.sluice.feed;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A lock-free log-linear histogram of microsecond values: 32 sub-buckets per power of two, so a bucket is at most
 * ~3% wide. Values above ~2^40 µs land in the last bucket.
 */
final class LatencyHistogram {

    private static final int SUB_BITS = 5;
    private static final int SUB = 1 << SUB_BITS;
    private static final int MAGNITUDES = 40;

    private final AtomicLongArray counts = new AtomicLongArray(SUB * (MAGNITUDES + 1));

    void record(long micros) {
        counts.incrementAndGet(indexOf(Math.max(0, micros)));
    }

    static int indexOf(long value) {
        if (value < SUB) return (int) value;
        int magnitude = 63 - Long.numberOfLeadingZeros(value) - SUB_BITS + 1; // >= 1
        if (magnitude > MAGNITUDES) return SUB * (MAGNITUDES + 1) - 1;
        int sub = (int) (value >>> (magnitude - 1)) - SUB; // in [0, SUB)
        return magnitude * SUB + sub;
    }

    /** The middle value of a bucket. */
    static double valueOf(int index) {
        if (index < SUB) return index;
        int magnitude = index / SUB;
        int sub = index % SUB;
        long low = (long) (sub + SUB) << (magnitude - 1);
        long width = 1L << (magnitude - 1);
        return low + (width - 1) / 2.0;
    }

    /** The value at quantile {@code q} in [0, 1], or 0 when empty. */
    double quantile(double q) {
        long total = 0;
        for (int i = 0; i < counts.length(); i++) total += counts.get(i);
        if (total == 0) return 0;
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < counts.length(); i++) {
            seen += counts.get(i);
            if (seen >= Math.max(1, rank)) return valueOf(i);
        }
        return valueOf(counts.length() - 1);
    }

}

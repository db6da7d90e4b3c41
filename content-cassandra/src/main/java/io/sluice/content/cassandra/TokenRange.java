package io.sluice.content.cassandra;

import io.sluice.document.Slice;

import java.math.BigInteger;

/**
 * A range {@code (start, end]} of the Murmur3 token ring, which is the signed 64-bit numbers: what one visit slice
 * scans when it visits a whole table.
 *
 * <p>Slice {@code i} of {@code n} is the {@code i}-th of {@code n} equal splits of {@code (Long.MIN_VALUE,
 * Long.MAX_VALUE]}. Murmur3 never gives a partition the token {@code Long.MIN_VALUE} (Cassandra's partitioner maps that
 * hash to {@code Long.MAX_VALUE}), so the slices of any {@code n} are disjoint and together hold every partition. They
 * depend on nothing but {@code n}, not on the cluster's nodes or vnodes, so a continuation stays valid while nodes
 * come and go.
 *
 * @param start the token just before the range
 * @param end   the last token in the range, greater than {@code start}
 */
record TokenRange(long start, long end) {

    private static final BigInteger RING = BigInteger.valueOf(Long.MAX_VALUE)
                                                     .subtract(BigInteger.valueOf(Long.MIN_VALUE));

    /** @throws IllegalArgumentException if the range is empty */
    TokenRange {
        if (end <= start) {
            throw new IllegalArgumentException("Token range (" + start + ", " + end + "] is empty");
        }
    }

    /** The range slice {@code slice.sliceId()} of {@code slice.slices()} scans. */
    static TokenRange of(Slice slice) {
        return new TokenRange(boundary(slice.sliceId(), slice.slices()), boundary(slice.sliceId() + 1, slice.slices()));
    }

    /** The token {@code i/n} of the way around the ring from {@code Long.MIN_VALUE}. */
    private static long boundary(int i, int n) {
        return BigInteger.valueOf(Long.MIN_VALUE)
                         .add(RING.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(n)))
                         .longValueExact();
    }

    /** Whether {@code token} is in the range. */
    boolean contains(long token) {
        return token > start && token <= end;
    }

    /**
     * How far a scan that has finished every token before {@code token} (which is in the range) has come, as a
     * percentage below 100: a scan finishes only when it has read the end of the range.
     */
    double percentAt(long token) {
        double done = unsigned(token - start) / unsigned(end - start);
        return Math.min(99.999, Math.max(0, 100 * done));
    }

    /** {@code value} read as an unsigned 64-bit number. */
    private static double unsigned(long value) {
        double high = (double) (value >>> 1) * 2;
        return high + (value & 1);
    }

    @Override
    public String toString() {
        return "(" + start + ", " + end + "]";
    }

}

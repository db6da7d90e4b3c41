package io.sluice.content;

/**
 * An inclusive range of backend timestamps, in microseconds: a visit returns only entries whose timestamp {@code t}
 * satisfies {@code from <= t <= to}.
 *
 * @param from smallest timestamp included, at least 0
 * @param to largest timestamp included, at least {@code from}
 */
public record TimeRange(long from, long to) {

    /** Every timestamp. */
    public static final TimeRange ALL = new TimeRange(0, Long.MAX_VALUE);

    /** @throws IllegalArgumentException naming the values if {@code from} is negative or {@code to < from} */
    public TimeRange {
        if (from < 0) {
            throw new IllegalArgumentException("fromTimestamp must be non-negative, but was " + from);
        }
        if (to < from) {
            throw new IllegalArgumentException("toTimestamp must be greater than, or equal to, fromTimestamp, but "
                                               + to + " < " + from);
        }
    }

    /** The range {@code [from, to]}. */
    public static TimeRange of(long from, long to) {
        return new TimeRange(from, to);
    }

    /** Whether {@code timestamp} is in the range. */
    public boolean contains(long timestamp) {
        return timestamp >= from && timestamp <= to;
    }

}

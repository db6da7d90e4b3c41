package io.sluice.content;

import java.util.Optional;

/**
 * An inclusive range of {@linkplain DocumentKey#orderKey() order keys}, compared unsigned: the keys of one bucket (or
 * of several adjacent ones) in visiting order.
 *
 * @param first smallest key in the range
 * @param last largest key in the range, unsigned at least {@code first}
 */
public record KeyRange(long first, long last) {

    /** @throws IllegalArgumentException if {@code last} is below {@code first} (unsigned) */
    public KeyRange {
        if (Long.compareUnsigned(last, first) < 0) {
            throw new IllegalArgumentException(String.format("Range end 0x%016x is before its start 0x%016x",
                                                             last, first));
        }
    }

    /** Whether {@code orderKey} is in the range. */
    public boolean contains(long orderKey) {
        return Long.compareUnsigned(orderKey, first) >= 0 && Long.compareUnsigned(orderKey, last) <= 0;
    }

    /** Whether every key of this range is before {@code orderKey}. */
    public boolean isBefore(long orderKey) {
        return Long.compareUnsigned(last, orderKey) < 0;
    }

    /** The position before every document in the range. */
    public DocumentKey start() {
        return DocumentKey.bucketStart(first);
    }

    /** The position just past the range, or empty if the range reaches the largest key. */
    public Optional<DocumentKey> end() {
        return last == -1L ? Optional.empty() : Optional.of(DocumentKey.bucketStart(last + 1));
    }

    @Override
    public String toString() {
        return String.format("[0x%016x, 0x%016x]", first, last);
    }

}

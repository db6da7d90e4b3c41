package io.sluice.container;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyHistogramTest {

    @Test
    void bucket_isTheCeilingOfFourLog2OfMicroseconds() {
        for (long nanos = 1; nanos < 4_000_000_000_000L; nanos = nanos * 11 / 10 + 1) {
            int expected = nanos <= 1000 ? 0 : (int) Math.min(127, Math.ceil(4 * Math.log(nanos / 1000.0) / Math.log(2) - 1e-9));
            assertEquals(expected, LatencyHistogram.bucket(nanos), "bucket of " + nanos + " ns");
        }
        assertEquals(4, LatencyHistogram.bucket(2000)); // exactly 2 µs is the upper bound of bucket 4
        assertEquals(5, LatencyHistogram.bucket(2001));
    }

    @Test
    void percentiles_reportTheUpperBoundOfTheBucketHoldingTheRank() {
        LatencyHistogram histogram = new LatencyHistogram();
        for (int i = 1; i <= 100; i++)
            histogram.record(i * 1_000_000L); // 1..100 ms
        double median = histogram.percentileNanos(0.5);
        assertTrue(median >= 50_000_000 && median <= 50_000_000 * 1.19, "median " + median);
        assertEquals(100_000_000L, histogram.maxNanos());
        assertEquals(100, histogram.count());
    }

}

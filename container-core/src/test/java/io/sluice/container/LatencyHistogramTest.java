package io.sluice.container;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

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

    @Test
    void recordsFromMoreThreadsThanStripes_areEachCountedOnce() throws Exception {
        LatencyHistogram histogram = new LatencyHistogram();
        int threads = 48, perThread = 5_000; // more threads than stripes: some share one
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> recorders = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long latency = (t % 4 + 1) * 1_000_000L; // 1, 2, 3 and 4 ms, a quarter of the records each
            Thread recorder = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++)
                        histogram.record(latency);
                }
                catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            recorders.add(recorder);
            recorder.start();
        }
        for (Thread recorder : recorders)
            recorder.join();

        assertEquals(List.of(), failures);
        assertEquals((long) threads * perThread, histogram.count());
        assertEquals((long) threads / 4 * perThread * (1 + 2 + 3 + 4) * 1_000_000L, histogram.sumNanos());
        assertEquals(1_000_000L, histogram.minNanos());
        assertEquals(4_000_000L, histogram.maxNanos());
        double median = histogram.percentileNanos(0.5); // the rank of the last 2 ms record
        assertTrue(median >= 2_000_000 && median <= 2_000_000 * 1.19, "median " + median);
        assertEquals(4_000_000L, histogram.percentileNanos(0.76), 0.0); // capped at the max
    }

}

package io.sluice.bench;

import io.sluice.container.LatencyHistogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Recording request latencies from two threads at once, as the server does for every response: {@link LatencyHistogram}
 * (a stripe of counts per thread) against a {@code LongAdder} per bucket, what it replaced. The latencies are those
 * of h2c 4×256 GETs, 2–3.4 ms: a few neighbouring buckets, whose adders share cache lines.
 *
 * <pre>java -jar jmh-benchmarks/target/benchmarks.jar LatencyHistogramBenchmark</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@Threads(2)
public class LatencyHistogramBenchmark {

    /** Latencies in four neighbouring buckets, 2.0 to 3.4 ms. */
    private static final long[] LATENCIES = { 2_050_000, 2_400_000, 2_850_000, 3_350_000 };

    @State(Scope.Benchmark)
    public static class Shared {
        final LatencyHistogram striped = new LatencyHistogram();
        final AdderPerBucket adders = new AdderPerBucket();
    }

    @State(Scope.Thread)
    public static class Latencies {
        private int next;

        long next() {
            next = (next + 1) & (LATENCIES.length - 1);
            return LATENCIES[next];
        }
    }

    @Benchmark
    public void striped(Shared shared, Latencies latencies) {
        shared.striped.record(latencies.next());
    }

    @Benchmark
    public void adderPerBucket(Shared shared, Latencies latencies) {
        shared.adders.record(latencies.next());
    }

    /** The layout {@link LatencyHistogram} had until 2026-11-29: a {@code LongAdder} per bucket, and one for the sum. */
    static final class AdderPerBucket {

        private final LongAdder[] buckets = new LongAdder[128];
        private final LongAdder sum = new LongAdder();

        AdderPerBucket() {
            Arrays.setAll(buckets, __ -> new LongAdder());
        }

        void record(long nanos) {
            buckets[bucket(nanos)].increment();
            sum.add(nanos);
        }

        /** {@code ceil(4 log2(nanos / 1 µs))}, as {@link LatencyHistogram} buckets them. */
        private static int bucket(long nanos) {
            return nanos <= 1000 ? 0 : Math.min(127, (int) Math.ceil(4 * Math.log(nanos / 1000.0) / Math.log(2)));
        }

    }

}

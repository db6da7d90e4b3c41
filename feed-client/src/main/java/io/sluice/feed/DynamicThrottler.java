package io.sluice.feed;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * Finds the in-flight count that maximises throughput, with a latency penalty, in two phases.
 * <ol>
 *   <li><b>Slow start</b>: doubles the target each measurement window while throughput keeps rising by at least 5%,
 *       so a cold client reaches the right order of magnitude within a few thousand operations, not minutes.</li>
 *   <li><b>Climb</b>: a hill-climb over log-spaced buckets of in-flight counts, each remembering the throughput seen
 *       there; moves randomly around the bucket with the best {@code throughput · inflight^−0.3}, exploring upwards
 *       when the best is the highest bucket measured.</li>
 * </ol>
 * A 429 ends slow start and caps the target at half the in-flight count; the cap grows back by 0.1 per success.
 */
public final class DynamicThrottler implements Throttler {

    static final int BUCKETS = 128;
    private static final double WEIGHT = 0.7;
    private static final double SLOW_START_GAIN = 1.05;

    private final long min;
    private final long max;
    private final LongSupplier nanoClock;
    private final DoubleSupplier random;
    private final double logRange;

    private final AtomicLong capX10;
    private final LongAdder successes = new LongAdder();
    private final AtomicLong sentInWindow = new AtomicLong();
    private volatile long target;
    private volatile long windowSends;

    // Guarded by this.
    private final double[] throughputs = new double[BUCKETS];
    private boolean slowStart = true;
    private double bestSlowStart = 0;
    private long windowStartNanos;
    private long successesAtWindowStart;

    /** Between {@code min} and {@code max} in flight, starting at {@code initial}. */
    public DynamicThrottler(long min, long max, long initial) {
        this(min, max, initial, System::nanoTime, () -> ThreadLocalRandom.current().nextDouble());
    }

    DynamicThrottler(long min, long max, long initial, LongSupplier nanoClock, DoubleSupplier random) {
        if (min < 1 || max < min) throw new IllegalArgumentException("Need 1 <= min <= max, but min was " + min + " and max " + max);
        this.min = min;
        this.max = max;
        this.nanoClock = nanoClock;
        this.random = random;
        this.logRange = Math.log(Math.max(max / (double) min, 1.0001));
        this.capX10 = new AtomicLong(10 * max);
        this.target = Math.max(min, Math.min(max, initial));
        this.windowSends = windowSends(target);
        this.windowStartNanos = nanoClock.getAsLong();
    }

    @Override public void sent(long inflight) {
        if (sentInWindow.incrementAndGet() >= windowSends) endWindow();
    }

    @Override public void success() {
        successes.increment();
        if (capX10.get() < 10 * max) capX10.incrementAndGet();
    }

    @Override public void throttled(long inflight) {
        capX10.set(Math.max(5 * inflight, 10 * min));
        synchronized (this) { slowStart = false; }
    }

    @Override public long targetInflight() {
        return Math.min(target, capX10.get() / 10);
    }

    /** Whether the throttler is still doubling its target. */
    synchronized boolean inSlowStart() { return slowStart; }

    private synchronized void endWindow() {
        if (sentInWindow.get() < windowSends) return; // another thread ended this window
        long now = nanoClock.getAsLong();
        long ok = successes.sum();
        double throughput = (ok - successesAtWindowStart) / (double) Math.max(1, now - windowStartNanos);
        long current = targetInflight();
        long next;
        if (slowStart && throughput >= bestSlowStart * SLOW_START_GAIN && current < max) {
            bestSlowStart = throughput;
            next = current * 2;
        }
        else {
            if (slowStart) { // the last doubling did not pay: remember what the level before it gave
                slowStart = false;
                if (bestSlowStart > 0) throughputs[bucketOf(Math.max(min, current / 2))] = bestSlowStart;
            }
            next = climb(current, throughput);
        }
        target = Math.max(min, Math.min(max, next));
        windowSends = windowSends(target);
        successesAtWindowStart = ok;
        windowStartNanos = now;
        sentInWindow.set(0);
    }

    private long climb(long current, double throughput) {
        throughputs[bucketOf(current)] = throughput;
        int best = -1;
        int highest = -1;
        double bestObjective = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < BUCKETS; i++) {
            if (throughputs[i] == 0) continue;
            if (i > 0 && i < BUCKETS - 1 && throughputs[i - 1] > 0 && throughputs[i + 1] > 0)
                throughputs[i] = (18 * throughputs[i] + throughputs[i - 1] + throughputs[i + 1]) / 20;
            double objective = throughputs[i] * Math.pow(inflightOf(i), WEIGHT - 1);
            if (objective > bestObjective) {
                bestObjective = objective;
                best = i;
            }
            highest = i;
        }
        if (best == highest) return 1 + (long) inflightOf(Math.min(best + 1, BUCKETS - 1));
        return (long) (inflightOf(best) * (0.84 + 0.4 * random.getAsDouble()) + (4 * random.getAsDouble() - 1));
    }

    int bucketOf(long inflight) {
        double position = Math.log(Math.max(1, inflight / (double) min)) / logRange;
        return (int) Math.max(0, Math.min(BUCKETS - 1, Math.floor(position * BUCKETS)));
    }

    double inflightOf(int bucket) {
        return min * Math.exp(logRange * (bucket + 0.5) / BUCKETS);
    }

    private long windowSends(long target) {
        // Slow start needs the pipeline filled twice over to see the new level; the climb samples every
        // ~10·target^(2/3) sends, which keeps the noise of one measurement near a few percent.
        return slowStart ? Math.max(64, 2 * target) : Math.max(32, (long) (10 * Math.pow(target, 2.0 / 3)));
    }

}

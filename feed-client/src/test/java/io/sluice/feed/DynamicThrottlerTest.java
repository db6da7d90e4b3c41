package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DynamicThrottlerTest {

    /** A server that completes inflight/latency ops per second up to its capacity, then queues. */
    private static final class SimulatedServer {
        final double capacityPerSecond;
        final double baseLatencySeconds;
        long nanos = 0;

        SimulatedServer(double capacityPerSecond, double baseLatencySeconds) {
            this.capacityPerSecond = capacityPerSecond;
            this.baseLatencySeconds = baseLatencySeconds;
        }

        /** Runs the throttler for {@code seconds} of simulated time. */
        void run(DynamicThrottler throttler, double seconds) {
            long end = nanos + (long) (seconds * 1e9);
            while (nanos < end) {
                long inflight = throttler.targetInflight();
                double throughput = Math.min(capacityPerSecond, inflight / baseLatencySeconds);
                nanos += (long) (1e9 / throughput);
                throttler.sent(inflight);
                throttler.success();
            }
        }
    }

    private static DynamicThrottler throttler(SimulatedServer server, long seed) {
        Random random = new Random(seed);
        return new DynamicThrottler(16, 4096, 16, () -> server.nanos, random::nextDouble);
    }

    @Test
    void coldStart_reachesServerCapacityWithinSeconds() {
        SimulatedServer server = new SimulatedServer(20_000, 0.05); // best at ~1000 in flight
        DynamicThrottler throttler = throttler(server, 1);
        server.run(throttler, 3);
        assertTrue(throttler.targetInflight() >= 700, "target was " + throttler.targetInflight());
    }

    @Test
    void coldStart_doesNotOvershootFarPastCapacity() {
        SimulatedServer server = new SimulatedServer(2_000, 0.05); // best at ~100 in flight
        DynamicThrottler throttler = throttler(server, 2);
        server.run(throttler, 10);
        assertFalse(throttler.inSlowStart());
        assertTrue(throttler.targetInflight() <= 400, "target was " + throttler.targetInflight());
    }

    @Test
    void throttled_capsTargetAtHalfTheInflight() {
        SimulatedServer server = new SimulatedServer(20_000, 0.05);
        DynamicThrottler throttler = throttler(server, 3);
        server.run(throttler, 3);
        throttler.throttled(800);
        assertEquals(400, throttler.targetInflight());
        assertFalse(throttler.inSlowStart());
    }

    @Test
    void throttled_capGrowsBackWithSuccesses() {
        DynamicThrottler throttler = new DynamicThrottler(16, 4096, 1024, () -> 0, () -> 0.5);
        throttler.throttled(100);
        assertEquals(50, throttler.targetInflight());
        for (int i = 0; i < 100; i++) throttler.success();
        assertEquals(60, throttler.targetInflight());
    }

    @Test
    void buckets_spanMinToMax() {
        DynamicThrottler throttler = new DynamicThrottler(16, 4096, 16, () -> 0, () -> 0.5);
        assertEquals(0, throttler.bucketOf(16));
        assertEquals(DynamicThrottler.BUCKETS - 1, throttler.bucketOf(4096));
        assertEquals(64, throttler.bucketOf(256));
    }

}

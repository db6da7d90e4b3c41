package io.sluice.feed;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/** Counts requests and responses; cheap and lock-free on the hot path. Resetting swaps in a fresh set of counters. */
final class StatsCollector {

    private final AtomicReference<Counters> counters = new AtomicReference<>(new Counters());

    void request() { counters.get().requests.increment(); }

    void response(int code, long latencyNanos, int bytesSent, int bytesReceived) {
        Counters c = counters.get();
        c.responses.increment();
        c.codes.incrementAndGet(code >= 0 && code < 600 ? code : 0);
        long micros = latencyNanos / 1000;
        c.latencySum.add(micros);
        c.latencyMin.accumulateAndGet(micros, Math::min);
        c.latencyMax.accumulateAndGet(micros, Math::max);
        c.histogram.record(micros);
        c.bytesSent.add(bytesSent);
        c.bytesReceived.add(bytesReceived);
    }

    void exception() { counters.get().exceptions.increment(); }

    void reset() { counters.set(new Counters()); }

    OperationStats snapshot(LongSupplier inflight) {
        Counters c = counters.get();
        Map<Integer, Long> codes = new TreeMap<>();
        for (int i = 0; i < 600; i++) {
            long n = c.codes.get(i);
            if (n > 0) codes.put(i, n);
        }
        long responses = c.responses.sum();
        OperationStats.Latency latency = responses == 0
                ? OperationStats.Latency.NONE
                : new OperationStats.Latency(c.latencyMin.get() / 1e3, c.latencySum.sum() / 1e3 / responses,
                                             c.latencyMax.get() / 1e3, c.histogram.quantile(0.5) / 1e3,
                                             c.histogram.quantile(0.9) / 1e3, c.histogram.quantile(0.99) / 1e3,
                                             c.histogram.quantile(0.999) / 1e3);
        return new OperationStats(c.requests.sum(), responses, codes, c.exceptions.sum(), inflight.getAsLong(),
                                  c.bytesSent.sum(), c.bytesReceived.sum(), latency);
    }

    private static final class Counters {
        final LongAdder requests = new LongAdder();
        final LongAdder responses = new LongAdder();
        final LongAdder exceptions = new LongAdder();
        final LongAdder bytesSent = new LongAdder();
        final LongAdder bytesReceived = new LongAdder();
        final LongAdder latencySum = new LongAdder();
        final AtomicLong latencyMin = new AtomicLong(Long.MAX_VALUE);
        final AtomicLong latencyMax = new AtomicLong(0);
        final AtomicLongArray codes = new AtomicLongArray(600);
        final LatencyHistogram histogram = new LatencyHistogram();
    }

}

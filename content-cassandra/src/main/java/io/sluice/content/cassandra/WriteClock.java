package io.sluice.content.cassandra;

import io.sluice.content.Timestamps;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cassandra write timestamps ({@code USING TIMESTAMP}, microseconds) for plain writes, and how long a lightweight
 * transaction must wait after one, so that plain writes and Paxos writes of one document are ordered as they happen.
 *
 * <p>Cassandra keeps, per cell, the write with the greatest write timestamp. A plain write's timestamp comes from this
 * container's clock; a lightweight transaction's is its Paxos ballot, from the coordinating node's clock, which this
 * container cannot set. With every node's clock within {@code skew} of this container's:
 * <ul>
 *   <li>a plain write is stamped {@code now + skew}, which exceeds the ballot of any transaction that committed before
 *       it was sent (that ballot is at most the coordinator's now, at most {@code now + skew} here);</li>
 *   <li>a transaction that would replace a plain-written version stamped {@code t} is sent only once
 *       {@code now - skew > t} here, so its ballot (at least the coordinator's now, at least {@code now - skew} here)
 *       exceeds {@code t}. That wait is at most {@code 2 × skew}, and only right after a plain write of the same
 *       document.</li>
 * </ul>
 * Timestamps strictly increase per container, so one container's plain writes of a document apply in issue order.
 * Thread-safe.
 */
final class WriteClock {

    private final Clock clock;
    private final long skewMicros;
    private final AtomicLong last = new AtomicLong(Long.MIN_VALUE);

    WriteClock(Clock clock, Duration skew) {
        this.clock = clock;
        this.skewMicros = Timestamps.micros(skew);
    }

    /** The write timestamp of the next plain write: this clock's now plus the skew, above every earlier one. */
    long next() {
        long stamp = Timestamps.nowMicros(clock) + skewMicros;
        return last.accumulateAndGet(stamp, (previous, current) -> Math.max(previous + 1, current));
    }

    /**
     * How long to wait before a lightweight transaction may replace a version plain-written with write timestamp
     * {@code writeTime}, so that its ballot is greater; zero if it may go now.
     */
    Duration untilAfter(long writeTime) {
        long wait = writeTime + skewMicros + 1 - Timestamps.nowMicros(clock);
        return wait <= 0 ? Duration.ZERO : Duration.ofNanos(wait * 1_000);
    }

    /** This clock's now, in microseconds. */
    long nowMicros() {
        return Timestamps.nowMicros(clock);
    }

    long skewMicros() {
        return skewMicros;
    }

}

package io.sluice.feed;

import java.time.Duration;

/**
 * Which failed attempts to retry, how often, and how long to wait in between. 429 is retried until the operation's
 * deadline; 503 and transport errors (GOAWAY, reset, refused, connection loss) at most {@link #retries()} times.
 * Every retry waits {@code min(maxBackoff, initialBackoff·2^(attempt−1))}, scaled by a random factor in [0.5, 1).
 */
public interface RetryStrategy {

    /** Whether failed operations of this type are retried at all. */
    default boolean retry(OperationType type) { return true; }

    /** How many times an operation is retried after 503 or a transport error. */
    default int retries() { return 10; }

    /** The wait before the first retry. */
    default Duration initialBackoff() { return Duration.ofMillis(10); }

    /** The longest wait between two attempts. */
    default Duration maxBackoff() { return Duration.ofSeconds(5); }

    /** The defaults above. */
    static RetryStrategy defaults() { return new RetryStrategy() { }; }

}

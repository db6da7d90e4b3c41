package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static io.sluice.feed.CircuitBreaker.State.CLOSED;
import static io.sluice.feed.CircuitBreaker.State.HALF_OPEN;
import static io.sluice.feed.CircuitBreaker.State.OPEN;
import static org.junit.jupiter.api.Assertions.assertEquals;

class GracePeriodCircuitBreakerTest {

    private final AtomicLong now = new AtomicLong(0);
    private final GracePeriodCircuitBreaker breaker =
            new GracePeriodCircuitBreaker(now::get, Duration.ofSeconds(10), Duration.ofSeconds(30));

    private void advanceSeconds(long seconds) { now.addAndGet(seconds * 1_000_000_000L); }

    @Test
    void failures_withinGrace_stayClosed() {
        breaker.failure(503);
        advanceSeconds(10);
        assertEquals(CLOSED, breaker.state());
    }

    @Test
    void failures_pastGrace_halfOpen() {
        breaker.failure(new IOException("reset"));
        advanceSeconds(11);
        assertEquals(HALF_OPEN, breaker.state());
    }

    @Test
    void success_closesHalfOpen() {
        breaker.failure(503);
        advanceSeconds(11);
        breaker.success();
        assertEquals(CLOSED, breaker.state());
    }

    @Test
    void failures_pastDoom_openForGood() {
        breaker.failure(503);
        advanceSeconds(31);
        assertEquals(OPEN, breaker.state());
        breaker.success();
        assertEquals(OPEN, breaker.state());
    }

    @Test
    void withoutDoom_neverOpens() {
        GracePeriodCircuitBreaker lenient = new GracePeriodCircuitBreaker(now::get, Duration.ofSeconds(10), null);
        lenient.failure(503);
        advanceSeconds(100_000);
        assertEquals(HALF_OPEN, lenient.state());
    }

}

package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RateLimiterTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final AtomicLong slept = new AtomicLong();
    private final RateLimiter limiter = new RateLimiter(100, now::get, nanos -> {
        slept.addAndGet(nanos);
        now.addAndGet(nanos);
    });

    @Test
    void acquire_pacesToTheRate() throws InterruptedException {
        for (int i = 0; i < 1001; i++) limiter.acquire();
        assertEquals(10_000_000_000L, slept.get()); // the first goes at once, then one every 10 ms
    }

    @Test
    void acquire_afterOversleeping_catchesUpWithoutLosingRate() throws InterruptedException {
        limiter.acquire();
        now.addAndGet(15_000_000); // the caller was late by 5 ms
        limiter.acquire();
        limiter.acquire();
        assertEquals(5_000_000, slept.get()); // the third waits only until 20 ms
    }

    @Test
    void acquire_afterALongStall_burstsAtMostTheCatchUpWindow() throws InterruptedException {
        limiter.acquire();
        now.addAndGet(10_000_000_000L);
        for (int i = 0; i < 11; i++) limiter.acquire(); // 100 ms of catching up: 10 operations, and the 11th at once
        assertEquals(0, slept.get());
        limiter.acquire();
        assertEquals(10_000_000, slept.get());
    }

}

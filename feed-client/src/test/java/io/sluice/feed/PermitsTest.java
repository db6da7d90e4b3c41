package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PermitsTest {

    @Test
    void tryAcquire_takesUntilNoneIsFree() {
        Permits permits = new Permits(3, 2);
        assertTrue(permits.tryAcquire());
        assertTrue(permits.tryAcquire());
        assertTrue(permits.tryAcquire());
        assertFalse(permits.tryAcquire());
        assertEquals(0, permits.available());
        permits.release();
        assertEquals(1, permits.available());
        assertTrue(permits.tryAcquire());
    }

    @Test
    void releaseBeyondMax_isAnError() {
        Permits permits = new Permits(2, 1);
        assertThrows(IllegalStateException.class, permits::release);
        assertEquals(2, permits.available());
    }

    @Test
    void blockedTaker_isWokenOnceABatchIsFree_notAtEachRelease() throws Exception {
        Permits permits = new Permits(8, 4);
        for (int i = 0; i < 8; i++) assertTrue(permits.tryAcquire());
        AtomicInteger taken = new AtomicInteger();
        Thread taker = new Thread(() -> {
            try {
                permits.acquire();
                taken.incrementAndGet();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        taker.start();
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> { while (permits.waiting() == 0) Thread.onSpinWait(); });

        for (int i = 0; i < 3; i++) permits.release();
        assertEquals(0, permits.signals()); // three free, batch of four: the taker sleeps on
        assertEquals(0, taken.get());

        permits.release();
        assertEquals(1, permits.signals());
        taker.join(30_000);
        assertFalse(taker.isAlive());
        assertEquals(1, taken.get());
        assertEquals(3, permits.available());
    }

    @Test
    void interruptedTaker_leavesThePermitsAsTheyWere() throws Exception {
        Permits permits = new Permits(1, 1);
        assertTrue(permits.tryAcquire());
        AtomicInteger interrupted = new AtomicInteger();
        Thread taker = new Thread(() -> {
            try {
                permits.acquire();
            }
            catch (InterruptedException e) {
                interrupted.incrementAndGet();
            }
        });
        taker.start();
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> { while (permits.waiting() == 0) Thread.onSpinWait(); });
        taker.interrupt();
        taker.join(30_000);
        assertEquals(1, interrupted.get());
        assertEquals(0, permits.waiting());
        assertEquals(0, permits.available());
    }

    @Test
    void manyTakersAndReleasers_neverExceedMax_andNoneIsLeftWaiting() {
        Permits permits = new Permits(4, 2);
        AtomicInteger held = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        int threads = 12, rounds = 20_000;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    try {
                        permits.acquire();
                    }
                    catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    most.accumulateAndGet(held.incrementAndGet(), Math::max);
                    if (ThreadLocalRandom.current().nextInt(8) == 0) Thread.yield();
                    held.decrementAndGet();
                    permits.release();
                }
            }));
        }
        assertTimeoutPreemptively(Duration.ofMinutes(2), () -> {
            workers.forEach(Thread::start);
            for (Thread worker : workers) worker.join();
        });
        assertTrue(most.get() <= 4, "held at most " + most.get());
        assertEquals(4, permits.available());
        assertEquals(0, permits.waiting());
    }

}

package io.sluice.feed;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counting permits whose blocked takers wake only when a batch of permits is free, not at every release.
 * <p>
 * A feeder that holds every permit and waits for one more (a semaphore) is woken by each completion: a park, an unpark
 * and a thread switch per operation, paid by the completing thread as well. Here a taker that finds none free sleeps
 * until {@code batch} are, then takes them one by one without sleeping. Releases with no one waiting cost one atomic
 * add and one volatile read.
 */
final class Permits {

    private final int max;
    private final int batch;
    private final AtomicInteger free;
    private final AtomicInteger waiting = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition roomy = lock.newCondition();
    private final AtomicInteger signals = new AtomicInteger(); // for tests: how often waiters were woken

    /** {@code max} permits, all free; blocked takers wait for {@code min(batch, max)} of them. */
    Permits(int max, int batch) {
        if (max < 1) throw new IllegalArgumentException("Permits must be positive, but was " + max);
        if (batch < 1) throw new IllegalArgumentException("Batch must be positive, but was " + batch);
        this.max = max;
        this.batch = Math.min(batch, max);
        this.free = new AtomicInteger(max);
    }

    /** Takes a permit if one is free. */
    boolean tryAcquire() {
        while (true) {
            int now = free.get();
            if (now == 0) return false;
            if (free.compareAndSet(now, now - 1)) return true;
        }
    }

    /** Takes a permit, waiting, if none is free, until a batch of them is. */
    void acquire() throws InterruptedException {
        if (tryAcquire()) return;
        lock.lockInterruptibly();
        try {
            waiting.incrementAndGet(); // before the check below: a release after it sees us and signals
            try {
                while ( ! tryAcquire()) roomy.await();
            }
            finally {
                waiting.decrementAndGet();
            }
        }
        finally {
            lock.unlock();
        }
    }

    void release() {
        int now = free.incrementAndGet();
        if (now > max) {
            free.decrementAndGet();
            throw new IllegalStateException("More permits released than taken");
        }
        if (now >= batch && waiting.get() > 0) {
            lock.lock();
            try {
                signals.incrementAndGet();
                roomy.signalAll();
            }
            finally {
                lock.unlock();
            }
        }
    }

    int available() { return free.get(); }

    /** Threads waiting in {@link #acquire}. */
    int waiting() { return waiting.get(); }

    /** How many releases woke waiters. */
    int signals() { return signals.get(); }

}

package io.sluice.feed;

/** Time for the request strategy: a clock, and delayed tasks. Injected so tests run on fake time. */
interface Scheduler {

    long nanoTime();

    /** Runs {@code task} once, {@code delayNanos} from now, on some thread other than the caller's. */
    void schedule(Runnable task, long delayNanos);

}

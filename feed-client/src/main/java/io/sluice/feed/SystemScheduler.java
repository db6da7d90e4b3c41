package io.sluice.feed;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Real time: {@link System#nanoTime()} and one daemon thread for delayed retries. */
final class SystemScheduler implements Scheduler, AutoCloseable {

    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
        Thread thread = new Thread(task, "sluice-feed-retry");
        thread.setDaemon(true);
        return thread;
    });

    SystemScheduler() {
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override public long nanoTime() { return System.nanoTime(); }

    @Override public void schedule(Runnable task, long delayNanos) {
        executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override public void close() {
        executor.shutdownNow();
    }

}

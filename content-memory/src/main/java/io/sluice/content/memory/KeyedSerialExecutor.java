package io.sluice.content.memory;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs tasks on an executor so that tasks with equal keys run one at a time, in submission order, while tasks with
 * different keys may run in parallel. Keys are hashed onto a fixed number of stripes, each a FIFO queue drained by at
 * most one executor task at a time; there is no global lock and {@link #execute} never blocks.
 */
final class KeyedSerialExecutor {

    private static final int MAX_TASKS_PER_DRAIN = 64;

    private final Executor executor;
    private final Stripe[] stripes;

    KeyedSerialExecutor(Executor executor, int stripeCount) {
        if (stripeCount < 1) {
            throw new IllegalArgumentException("Stripe count must be positive, but was " + stripeCount);
        }
        this.executor = executor;
        this.stripes = new Stripe[stripeCount];
        for (int i = 0; i < stripeCount; i++) {
            stripes[i] = new Stripe();
        }
    }

    /**
     * Queues {@code task} behind earlier tasks with the same key. If the executor rejects the drain, the queued tasks
     * run on the calling thread instead, so none is ever lost; tasks must therefore be short and non-blocking.
     */
    void execute(Object key, Runnable task) {
        int spread = key.hashCode() * 0x9E3779B9;
        stripes[Math.floorMod(spread ^ (spread >>> 16), stripes.length)].submit(task);
    }

    private final class Stripe {

        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final AtomicBoolean draining = new AtomicBoolean();

        void submit(Runnable task) {
            tasks.add(task);
            scheduleDrain();
        }

        private void scheduleDrain() {
            if (draining.compareAndSet(false, true)) {
                try {
                    executor.execute(this::drain);
                } catch (RejectedExecutionException e) {
                    drain();
                }
            }
        }

        /** Runs a bounded batch, then yields the thread so one busy key cannot starve other stripes. */
        private void drain() {
            Runnable task;
            for (int i = 0; i < MAX_TASKS_PER_DRAIN && (task = tasks.poll()) != null; i++) {
                task.run();
            }
            draining.set(false);
            if (!tasks.isEmpty()) {
                scheduleDrain();
            }
        }

    }

}

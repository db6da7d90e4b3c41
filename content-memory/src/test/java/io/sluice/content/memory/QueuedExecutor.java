package io.sluice.content.memory;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/** An executor that only queues tasks until the test runs them, on the test's thread. */
final class QueuedExecutor implements Executor {

    private final Queue<Runnable> tasks = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
        tasks.add(task);
    }

    /** Runs queued tasks, including ones they queue, until none are left. */
    void runAll() {
        Runnable task;
        while ((task = poll()) != null) {
            task.run();
        }
    }

    private synchronized Runnable poll() {
        return tasks.poll();
    }

}

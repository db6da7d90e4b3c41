package io.sluice.feed;

import java.util.PriorityQueue;

/** Manual time: tasks run only when {@link #advance} passes their due time. */
final class FakeScheduler implements Scheduler {

    private record Task(long due, long sequence, Runnable runnable) { }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>((a, b) -> a.due != b.due ? Long.compare(a.due, b.due)
                                                                                          : Long.compare(a.sequence, b.sequence));
    private long now = 1_000_000_000L;
    private long sequence = 0;

    @Override public synchronized long nanoTime() { return now; }

    @Override public synchronized void schedule(Runnable task, long delayNanos) {
        tasks.add(new Task(now + delayNanos, sequence++, task));
    }

    /** Delays of the tasks waiting, relative to now. */
    synchronized long nextDelay() { return tasks.isEmpty() ? -1 : tasks.peek().due - now; }

    synchronized int waiting() { return tasks.size(); }

    void advance(long nanos) {
        long until;
        synchronized (this) { until = now + nanos; }
        while (true) {
            Task task;
            synchronized (this) {
                if (tasks.isEmpty() || tasks.peek().due > until) {
                    now = until;
                    return;
                }
                task = tasks.poll();
                now = task.due;
            }
            task.runnable.run();
        }
    }

}

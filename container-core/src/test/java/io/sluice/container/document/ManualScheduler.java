package io.sluice.container.document;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link TaskScheduler} whose tasks run only when a test fires them. */
final class ManualScheduler implements TaskScheduler {

    private record Task(Runnable runnable, Duration delay, boolean[] cancelled) { }

    private final List<Task> tasks = new ArrayList<>();

    @Override
    public synchronized Runnable schedule(Runnable task, Duration delay) {
        boolean[] cancelled = { false };
        tasks.add(new Task(task, delay, cancelled));
        return () -> {
            synchronized (this) {
                cancelled[0] = true;
            }
        };
    }

    /** Runs every task scheduled so far and not cancelled, as if their delays had passed; returns how many ran. */
    int fireAll() {
        List<Task> due;
        synchronized (this) {
            due = tasks.stream().filter(task -> ! task.cancelled()[0]).toList();
            tasks.clear();
        }
        due.forEach(task -> task.runnable().run());
        return due.size();
    }

    /** Runs the handler's sweep of request deadlines, which answers 504 to requests whose deadline the clock passed. */
    int sweepDeadlines() {
        List<Task> due;
        synchronized (this) {
            due = tasks.stream().filter(task -> ! task.cancelled()[0] && task.delay().equals(Deadlines.TICK)).toList();
            tasks.removeAll(due);
        }
        due.forEach(task -> task.runnable().run());
        return due.size();
    }

    /** The delays of the tasks scheduled and not cancelled. */
    synchronized List<Duration> pendingDelays() {
        return tasks.stream().filter(task -> ! task.cancelled()[0]).map(Task::delay).toList();
    }

}

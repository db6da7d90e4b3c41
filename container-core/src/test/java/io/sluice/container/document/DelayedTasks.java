package io.sluice.container.document;

import io.sluice.config.VisitLimits;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A {@link TaskScheduler} whose tasks run only when a test fires them, chosen by their delay. */
final class DelayedTasks implements TaskScheduler {

    /** The delay of the handler's sweep of stalled visits, with the default stall timeout. */
    private static final Duration STALL_SWEEP = DocumentV1ApiHandler.sweepInterval(VisitLimits.DEFAULT_STALL_TIMEOUT);

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

    /** Runs the tasks not cancelled whose delay matches, as if that time had passed; returns how many ran. */
    int fire(Predicate<Duration> delay) {
        List<Task> due = new ArrayList<>();
        synchronized (this) {
            for (Task task : List.copyOf(tasks))
                if ( ! task.cancelled()[0] && delay.test(task.delay())) {
                    due.add(task);
                    tasks.remove(task);
                }
        }
        due.forEach(task -> task.runnable().run());
        return due.size();
    }

    /**
     * Runs the pending tasks with a delay shorter than {@code limit}: e.g. visit budgets, but not the handler's sweeps
     * of request deadlines and of stalled visits.
     */
    int fireShorterThan(Duration limit) {
        return fire(delay -> delay.compareTo(limit) < 0 && ! delay.equals(Deadlines.TICK) && ! delay.equals(STALL_SWEEP));
    }

    /** Runs the handler's sweep of request deadlines, which answers 504 to requests whose deadline the clock passed. */
    int sweepDeadlines() {
        return fire(delay -> delay.equals(Deadlines.TICK));
    }

    /** The delays of the tasks scheduled and not cancelled. */
    synchronized List<Duration> pending() {
        return tasks.stream().filter(task -> ! task.cancelled()[0]).map(Task::delay).toList();
    }

}

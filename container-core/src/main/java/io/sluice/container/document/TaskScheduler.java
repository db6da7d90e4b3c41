package io.sluice.container.document;

import java.time.Duration;

/** Runs tasks later, for deadlines; tests substitute one they advance by hand. */
@FunctionalInterface
public interface TaskScheduler {

    /**
     * Runs {@code task} once after {@code delay}, on some thread that may not block.
     *
     * @return cancels the task if it has not run yet
     */
    Runnable schedule(Runnable task, Duration delay);

}

package io.sluice.container.document;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Answers requests whose deadline passes unanswered, with one periodic sweep instead of a timer per request: a request
 * joins a concurrent set when it may wait ({@link DocumentRequest#watchDeadline}: its body is read, its backend call
 * did not complete as it returned, it visits) and leaves it when it is answered, and every {@code tick} the sweep hands
 * those whose deadline has passed to {@code expire}. A deadline is thus met at most one tick late, while a request
 * costs one set insertion and one removal, with no lock shared by all requests. Thread-safe.
 */
final class Deadlines {

    private static final Logger log = LoggerFactory.getLogger(Deadlines.class);

    /** How often the sweep runs: how late, at most, a request's deadline is acted on. */
    static final Duration TICK = Duration.ofMillis(50);

    private final Set<DocumentRequest> open = ConcurrentHashMap.newKeySet();
    private final Clock clock;
    private final TaskScheduler scheduler;
    private final Consumer<DocumentRequest> expire;
    private final Object lock = new Object();
    private Runnable cancelSweep; // guarded by lock; null when stopped

    /**
     * @param clock     what deadlines are compared with
     * @param scheduler runs the sweep
     * @param expire    answers a request whose deadline passed; it stays tracked until it is answered
     */
    Deadlines(Clock clock, TaskScheduler scheduler, Consumer<DocumentRequest> expire) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.expire = Objects.requireNonNull(expire, "expire");
    }

    /** Tracks {@code request} until its exchange is answered. */
    void track(DocumentRequest request) {
        open.add(request);
        request.exchange().whenDone(status -> open.remove(request));
    }

    /** Starts sweeping every {@link #TICK}. */
    void start() {
        synchronized (lock) {
            if (cancelSweep == null)
                cancelSweep = scheduler.schedule(this::sweep, TICK);
        }
    }

    /** Stops sweeping; requests still open are left to the server's own stop. */
    void stop() {
        synchronized (lock) {
            if (cancelSweep != null)
                cancelSweep.run();
            cancelSweep = null;
        }
    }

    /** Requests being tracked. */
    int open() {
        return open.size();
    }

    private void sweep() {
        try {
            Instant now = clock.instant();
            for (DocumentRequest request : open) {
                if (now.isBefore(request.deadline()))
                    continue;
                try {
                    expire.accept(request);
                }
                catch (RuntimeException e) {
                    open.remove(request); // never retried every tick
                    log.error("Answering {} after its deadline failed", request.pathId(), e);
                }
            }
        }
        finally {
            synchronized (lock) {
                if (cancelSweep != null)
                    cancelSweep = scheduler.schedule(this::sweep, TICK);
            }
        }
    }

}

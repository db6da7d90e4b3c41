package io.sluice.content;

import io.sluice.document.DocumentException;
import io.sluice.document.UpdateOutOfRangeException;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The part of every engine's single-document operations that the {@link ContentBackend} contract fixes: admission
 * (ERROR once closed, TIMEOUT past the deadline, OVERLOAD beyond a number of pending operations), ordering per document
 * (a {@link KeySequencer}), the same checks again when an operation's turn comes, and failures turned into outcomes. An
 * engine supplies only how to carry an operation out; one whose operations are done when they return may order them
 * itself and take only the admission and failure handling ({@link #runNow}). Thread-safe; never blocks.
 */
public final class OperationSequencer {

    private final String engine;
    private final Clock clock;
    private final int maxPending;
    private final BooleanSupplier closed;
    private final BiFunction<OperationName, Throwable, Outcome> failures;
    private final KeySequencer keys = new KeySequencer();
    private final AtomicInteger pending = new AtomicInteger();

    /**
     * @param engine     the engine's name in messages, e.g. "in-memory"
     * @param clock      the clock deadlines are checked against
     * @param maxPending operations admitted but not completed at most; one more answers OVERLOAD at once
     * @param closed     whether the engine is closed: operations then answer ERROR
     * @param failures   the outcome of an operation (named as in {@link #run}) that failed with an exception other
     *                   than a {@link DocumentException} (which is always an ERROR with its message); gets the cause
     *                   unwrapped from any {@link CompletionException}
     */
    public OperationSequencer(String engine, Clock clock, int maxPending, BooleanSupplier closed,
                              BiFunction<OperationName, Throwable, Outcome> failures) {
        if (maxPending < 1) {
            throw new IllegalArgumentException("maxPending must be positive, but was " + maxPending);
        }
        this.engine = Objects.requireNonNull(engine, "engine");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxPending = maxPending;
        this.closed = Objects.requireNonNull(closed, "closed");
        this.failures = Objects.requireNonNull(failures, "failures");
    }

    /**
     * Runs {@code operation} after every operation submitted earlier with an equal {@code key} has completed, unless
     * the engine is closed, {@code deadline} has passed (checked now, and again when its turn comes if it had to wait
     * for one) or too many operations are pending. {@code operation} starts on the thread that completed its
     * predecessor (or the caller's), so it must hand work off, never block; it may throw.
     *
     * @param what how messages name the operation
     */
    public CompletableFuture<Outcome> run(Object key, OperationName what, Instant deadline,
                                          Supplier<CompletableFuture<Outcome>> operation) {
        Outcome refusal = refusal(what, deadline);
        if (refusal != null) {
            return CompletableFuture.completedFuture(refusal);
        }
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            return CompletableFuture.completedFuture(overload(what));
        }
        return keys.run(key, (boolean waited) -> {
            // One that started at once was checked just now; one that waited for its turn is checked again.
            Outcome late = waited ? refusal(what, deadline) : null;
            return late != null ? CompletableFuture.completedFuture(late) : operation.get();
        }).handle((outcome, failure) -> {
            pending.decrementAndGet();
            return failure == null ? outcome : failed(what, failure);
        });
    }

    /**
     * Carries out {@code operation} on this thread at once, with {@link #run}'s admission (closed, deadline, pending
     * operations) and failure handling but without its ordering: for an engine whose operations are done when they
     * return and which orders those on one document itself, e.g. under a lock per document. It must then do so for all
     * of them: operations passed here are not ordered with those passed to {@link #run} or {@link #sequence}.
     * An {@link Error} is not caught.
     */
    public Outcome runNow(OperationName what, Instant deadline, Supplier<Outcome> operation) {
        Outcome outcome = admitAndCall(what, deadline, operation);
        return outcome != null ? outcome : failed(what, new NullPointerException("The operation returned no outcome"));
    }

    /**
     * Carries out a read at once on this thread, with {@link #run}'s admission and failure handling, when no operation
     * with an equal {@code key} is in flight: every one submitted earlier with it has then completed, so the read comes
     * after them in their order, as {@link #run} would have placed it, without taking its place in the map. Null, having
     * answered nothing, when one is in flight or {@code attempt} returns null (it could not answer without waiting,
     * e.g. for a file read); the caller then submits the operation with {@link #run}, which does it again. So
     * {@code attempt} must change nothing and never block. Admission refusals (closed, deadline, overload) are answers.
     * An {@link Error} is not caught.
     */
    public Outcome readIfIdle(Object key, OperationName what, Instant deadline, Supplier<Outcome> attempt) {
        return keys.isIdle(key) ? admitAndCall(what, deadline, attempt) : null;
    }

    /** {@code operation}'s outcome (null if it gave none), called if admitted, counted pending meanwhile; else the refusal. */
    private Outcome admitAndCall(OperationName what, Instant deadline, Supplier<Outcome> operation) {
        Outcome refusal = refusal(what, deadline);
        if (refusal != null) {
            return refusal;
        }
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            return overload(what);
        }
        try {
            return operation.get();
        } catch (RuntimeException e) {
            return failed(what, e);
        } finally {
            pending.decrementAndGet();
        }
    }

    /**
     * Runs an engine's own work on one document (e.g. forgetting an expired tombstone) in that document's order, as
     * {@link #run} does, but without admission checks: it is not an operation a client waits for.
     */
    public <T> CompletableFuture<T> sequence(Object key, Supplier<CompletableFuture<T>> task) {
        return keys.run(key, task);
    }

    /** Why an operation must not start now: the engine is closed or {@code deadline} has passed; null if it may. */
    public Outcome refusal(OperationName what, Instant deadline) {
        if (closed.getAsBoolean()) {
            return closedOutcome();
        }
        if (clock.instant().isAfter(deadline)) {
            return Outcome.deadlinePassed(what, deadline);
        }
        return null;
    }

    private Outcome overload(OperationName what) {
        return Outcome.overload("Rejecting " + what + ": " + maxPending + " operations already pending");
    }

    /** The outcome of operations on a closed engine. */
    public Outcome closedOutcome() {
        return Outcome.error("The " + engine + " content backend is closed");
    }

    /** Operations admitted and not yet completed. */
    public int pending() {
        return pending.get();
    }

    private Outcome failed(OperationName what, Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof UpdateOutOfRangeException) {
            return Outcome.invalid(cause.getMessage()); // the client's update does not fit the stored values
        }
        if (cause instanceof DocumentException) {
            return Outcome.error(cause.getMessage()); // e.g. a stored document that no longer fits its schema
        }
        return failures.apply(what, cause);
    }

}

package io.sluice.container.document;

import io.sluice.content.ContentUnavailableException;
import io.sluice.content.ProgressToken;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import org.eclipse.jetty.http.HttpStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pulls one page of a visit into a {@link Sink}, one {@link Visit#next} at a time, and says how the page ended: the
 * visit finished, the sink had enough at a bucket boundary, the sink failed, the backend failed, or the page's time ran
 * out. Never blocks; runs on whichever threads complete the backend's and the sink's futures, one step at a time.
 *
 * <p>When time runs out while the backend is reading, the page ends at once with the continuation of the last batch
 * the sink took (the batch being read is dropped, so resuming returns it again); while the sink works, the page ends
 * as soon as it is done, so work it started (e.g. updates) is never repeated by resuming.
 *
 * <p>Memory: before each pull the page reserves {@value #HELD_PER_STORED_BYTE} times the batch's byte limit from the
 * visits' {@link MemoryBudget} (the stored bytes, the decoded documents, what they render to), and holds it until the
 * sink has taken the batch; what the sink keeps ({@link Sink#heldBytes()}) stays counted until {@link #releaseMemory()}.
 * When the budget has no room, a page that has taken entries ends there (its continuation is exact), and one that has
 * not waits for room until its time is up; only a page without entries may be granted more than the budget, alone. A batch stopped before a document larger than the limit is asked again
 * with a limit that fits it.
 */
final class PageDriver {

    /** Heap a visit holds per stored byte of a batch it reads: the bytes, the decoded document, its rendering. */
    static final int HELD_PER_STORED_BYTE = 4;

    /** Stored bytes a page's batch may hold (unless one document alone is larger). */
    static final long PULL_BYTES = 1 << 20;

    /** What takes the batches of a page. */
    interface Sink {

        /** The most entries to ask the backend for next; positive. */
        int nextBatchSize();

        /**
         * Takes a batch's entries; completes, never exceptionally, with a failure message that ends the page, or
         * empty to go on.
         */
        CompletableFuture<Optional<String>> accept(VisitBatch batch);

        /** Whether the page has enough, so that it ends at the next bucket boundary. */
        boolean satisfied();

        /** Whether the page must end now, even inside a bucket (continuations are exact, so this loses nothing). */
        default boolean full() {
            return false;
        }

        /** Bytes of heap the sink keeps of what it took so far (e.g. the rendered page); counted against the budget. */
        default long heldBytes() {
            return 0;
        }

    }

    /**
     * How a page ended.
     *
     * @param continuation where to resume; empty when the visit is finished, or when it failed and none was given
     * @param batches      how many batches the sink took
     * @param failure      why the page failed, if it did
     * @param expired      whether the page's time ran out before the visit finished
     * @param unavailable  whether the failure is the backend's {@link ContentUnavailableException}: nothing was lost,
     *                     and the page may be asked for again later
     */
    record End(Optional<ProgressToken> continuation, int batches, Optional<String> failure, boolean expired,
               boolean unavailable) {

        /** A page whose end was not the content layer's unavailability. */
        End(Optional<ProgressToken> continuation, int batches, Optional<String> failure, boolean expired) {
            this(continuation, batches, failure, expired, false);
        }

        /**
         * The failure the page's response reports. None when the content layer became unavailable after the sink
         * took a batch: such a page is answered like one whose time ran out, with the continuation of the last batch
         * taken, so that nothing it did is repeated; the next page meets the unavailability (a 503), or not.
         */
        Optional<String> reportedFailure() {
            return unavailable && batches > 0 ? Optional.empty() : failure;
        }

        /** The status of a page that reports a failure: 503 if the content layer was unavailable, else 500. */
        int failureStatus() {
            return unavailable ? HttpStatus.SERVICE_UNAVAILABLE_503 : HttpStatus.INTERNAL_SERVER_ERROR_500;
        }

    }

    private enum Phase { READY, WAITING, PULLING, PULLED, ACCEPTING, ACCEPTED, DONE }

    private final Visit visit;
    private final Sink sink;
    private final Clock clock;
    private final Instant pageEnd;
    private final MemoryBudget memory;
    private final CompletableFuture<End> result = new CompletableFuture<>();
    private final AtomicLong pullHeld = new AtomicLong();   // reserved for the batch being read or taken
    private final AtomicLong sinkHeld = new AtomicLong();   // counted for what the sink keeps
    private long maxBytes = PULL_BYTES;                     // guarded by this: the next pull's byte limit

    private Phase phase = Phase.READY;           // guarded by this
    private VisitBatch batch;                    // guarded by this: the batch pulled or being accepted
    private Throwable pullFailure;               // guarded by this
    private Optional<String> sinkFailure;        // guarded by this
    private boolean expired;                     // guarded by this
    private Optional<ProgressToken> continuation; // guarded by this: of the last batch accepted
    private int batches;                         // guarded by this
    private long entries;                        // guarded by this: in the batches the sink took
    private int wip;                             // guarded by this: pending calls of step()

    private PageDriver(Visit visit, Sink sink, Optional<ProgressToken> start, Clock clock, Instant pageEnd,
                       MemoryBudget memory) {
        this.visit = Objects.requireNonNull(visit, "visit");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.continuation = Objects.requireNonNull(start, "start");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pageEnd = Objects.requireNonNull(pageEnd, "pageEnd");
    }

    /**
     * Starts pulling a page of {@code visit}, which resumed from {@code start}, into {@code sink} until
     * {@code pageEnd} on {@code clock}, holding what it reads in {@code memory}. Its {@link #result()} completes
     * exactly once, normally, with how the page ended; the visit is cancelled by then. Call {@link #releaseMemory()}
     * once the sink's content is no longer needed.
     */
    static PageDriver start(Visit visit, Sink sink, Optional<ProgressToken> start, Clock clock, Instant pageEnd,
                            TaskScheduler scheduler, MemoryBudget memory) {
        PageDriver driver = new PageDriver(visit, sink, start, clock, pageEnd, memory);
        Runnable cancelTimer = scheduler.schedule(driver::expire, Duration.between(clock.instant(), pageEnd));
        driver.result.whenComplete((end, failure) -> cancelTimer.run());
        driver.step();
        return driver;
    }

    /** Returns what the sink's content held of the visits' memory; idempotent. */
    void releaseMemory() {
        memory.release(sinkHeld.getAndSet(0));
    }

    /** How the page ended, once it has. */
    CompletableFuture<End> result() {
        return result;
    }

    /** Ends the page as soon as it can; called when the client is gone, or when the page's time is up. */
    void expire() {
        synchronized (this) {
            expired = true;
        }
        step();
    }

    /** Runs steps until one waits for a future; reentrant calls only ask the running loop for another round. */
    private void step() {
        synchronized (this) {
            if (wip++ > 0)
                return;
        }
        while (true) {
            while (stepOnce()) {
                // the page moved on without waiting for a future: take the next step at once
            }
            synchronized (this) {
                if (--wip == 0)
                    return;
                wip = 1;
            }
        }
    }

    /** Takes one step; returns whether another may be taken at once. */
    private boolean stepOnce() {
        End end = null;
        boolean again = false;
        boolean release = false;
        boolean pull = false;
        VisitBatch accept = null;
        synchronized (this) {
            switch (phase) {
                case READY:
                    if (expired || ! clock.instant().isBefore(pageEnd))
                        end = end(Optional.empty(), true);
                    else if (reserve()) {
                        phase = Phase.PULLING;
                        pull = true;
                    }
                    else if (entries > 0)
                        end = end(Optional.empty(), false); // no room for more: the page ends with what it has
                    else
                        phase = Phase.WAITING;
                    break;
                case WAITING:
                    if (expired)
                        end = end(Optional.empty(), true);
                    break;
                case PULLING:
                    if (expired) // drop the batch being read: resuming from the last continuation returns it again
                        end = end(Optional.empty(), true);
                    break;
                case PULLED:
                    if (pullFailure != null)
                        end = end(Optional.of(message(pullFailure)), false,
                                  unwrap(pullFailure) instanceof ContentUnavailableException);
                    else {
                        phase = Phase.ACCEPTING;
                        accept = batch;
                        maxBytes = Math.max(PULL_BYTES, batch.blockedBytes());
                    }
                    break;
                case ACCEPTED:
                    release = true;
                    batches++;
                    entries += batch.entries().size();
                    continuation = batch.continuation();
                    if (sinkFailure.isPresent())
                        end = end(sinkFailure, false);
                    else if (batch.isFinished() || (batch.atBucketBoundary() && sink.satisfied()) || sink.full())
                        end = end(Optional.empty(), false);
                    else {
                        phase = Phase.READY;
                        again = true;
                    }
                    batch = null;
                    break;
                default: // ACCEPTING, DONE: wait
                    break;
            }
        }
        if (release || end != null) { // never while holding this lock: releasing runs others' waiters
            memory.release(pullHeld.getAndSet(0));
            long kept = sink.heldBytes();
            memory.force(Math.max(0, kept - sinkHeld.getAndSet(kept)));
        }
        if (end != null) {
            visit.cancel(); // idempotent; releases what a finished visit still holds
            result.complete(end);
        }
        else if (pull)
            pull();
        else if (accept != null)
            accept(accept);
        return again;
    }

    /**
     * Reserves room for the next batch, or asks the budget to call {@link #memoryReleased} when there may be some;
     * call with the lock held.
     */
    private boolean reserve() {
        long bytes = HELD_PER_STORED_BYTE * maxBytes;
        boolean reserved = entries > 0 ? memory.tryReserve(bytes) // a page with entries never grows past the budget
                                       : memory.reserveOrWait(bytes, sinkHeld.get() + pullHeld.get(), this::memoryReleased);
        if ( ! reserved)
            return false;
        pullHeld.addAndGet(bytes);
        return true;
    }

    private void memoryReleased() {
        synchronized (this) {
            if (phase != Phase.WAITING)
                return;
            phase = Phase.READY;
        }
        step();
    }

    /** Ends the page; call with the lock held. */
    private End end(Optional<String> failure, boolean expiredNow) {
        return end(failure, expiredNow, false);
    }

    private End end(Optional<String> failure, boolean expiredNow, boolean unavailable) {
        phase = Phase.DONE;
        return new End(continuation, batches, failure, expiredNow, unavailable);
    }

    private void pull() {
        CompletableFuture<VisitBatch> next;
        try {
            long limit;
            synchronized (this) {
                limit = maxBytes;
            }
            next = visit.next(sink.nextBatchSize(), limit);
        }
        catch (RuntimeException e) {
            next = CompletableFuture.failedFuture(e);
        }
        next.whenComplete((pulled, failure) -> {
            synchronized (this) {
                if (phase != Phase.PULLING)
                    return;
                phase = Phase.PULLED;
                batch = pulled;
                pullFailure = failure;
            }
            step();
        });
    }

    private void accept(VisitBatch accepted) {
        CompletableFuture<Optional<String>> done;
        try {
            done = sink.accept(accepted);
        }
        catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        done.whenComplete((failure, exception) -> {
            synchronized (this) {
                phase = Phase.ACCEPTED;
                sinkFailure = exception != null ? Optional.of(message(exception)) : failure;
            }
            step();
        });
    }

    static String message(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof CancellationException)
            return "Visit was cancelled";
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

}

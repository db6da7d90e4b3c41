package io.sluice.container.document;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.content.ContentBackend;
import io.sluice.document.FieldSet;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitSpec;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A backend that delegates to another, but whose visits the test controls: when {@link #hold} is set, every
 * {@link Visit#next} waits until the test {@link #release}s it (or fails it); it counts pulls and records cancels.
 * Writes can be made to answer a fixed outcome.
 */
final class ControlledBackend implements ContentBackend {

    private final ContentBackend delegate;
    private final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
    final AtomicInteger pulls = new AtomicInteger();
    /** One per visit opened, in order: completes when that visit is cancelled. */
    final List<CompletableFuture<Void>> cancels = new CopyOnWriteArrayList<>();
    volatile boolean hold = false;
    volatile Function<DocumentId, Outcome> writeOutcome = null;
    /** When set, every write answers with this future instead. */
    volatile CompletableFuture<Outcome> writeGate = null;
    /** Completes when the first write arrives. */
    final CompletableFuture<DocumentId> firstWrite = new CompletableFuture<>();
    volatile Runnable onPull = () -> { };

    private record Held(int maxEntries, long maxBytes, Visit visit, CompletableFuture<VisitBatch> result) { }

    ControlledBackend(ContentBackend delegate) {
        this.delegate = delegate;
    }

    /** Waits (up to 10 s) for the next held pull. */
    private Held nextHeld() throws InterruptedException {
        Held next = held.poll(10, TimeUnit.SECONDS);
        if (next == null)
            throw new AssertionError("No visit pull arrived");
        return next;
    }

    /** Lets the next held pull read from the real visit. */
    void release() throws InterruptedException {
        release(Integer.MAX_VALUE);
    }

    /** Lets the next held pull read at most {@code maxEntries} from the real visit. */
    void release(int maxEntries) throws InterruptedException {
        Held next = nextHeld();
        next.visit().next(Math.min(maxEntries, next.maxEntries()), next.maxBytes()).whenComplete((batch, failure) -> {
            if (failure != null) next.result().completeExceptionally(failure);
            else next.result().complete(batch);
        });
    }

    /** Fails the next held pull. */
    void fail(Throwable failure) throws InterruptedException {
        nextHeld().result().completeExceptionally(failure);
    }

    /** Waits for the next pull to be held, leaving it held. */
    void awaitHeld() throws InterruptedException {
        Held next = nextHeld();
        held.add(next);
    }

    @Override
    public Visit visit(VisitSpec spec) {
        Visit real = delegate.visit(spec);
        CompletableFuture<Void> cancel = new CompletableFuture<>();
        cancels.add(cancel);
        return new Visit() {
            @Override
            public CompletableFuture<VisitBatch> next(int maxEntries, long maxBytes) {
                pulls.incrementAndGet();
                onPull.run();
                if ( ! hold)
                    return real.next(maxEntries, maxBytes);
                CompletableFuture<VisitBatch> result = new CompletableFuture<>();
                held.add(new Held(maxEntries, maxBytes, real, result));
                return result;
            }

            @Override
            public void cancel() {
                real.cancel();
                cancel.complete(null);
            }
        };
    }

    private CompletableFuture<Outcome> write(DocumentId id, java.util.function.Supplier<CompletableFuture<Outcome>> real) {
        firstWrite.complete(id);
        if (writeGate != null)
            return writeGate;
        Function<DocumentId, Outcome> fixed = writeOutcome;
        return fixed == null ? real.get() : CompletableFuture.completedFuture(fixed.apply(id));
    }

    @Override
    public CompletableFuture<Outcome> put(Document document, OperationOptions options) {
        return write(document.id(), () -> delegate.put(document, options));
    }

    @Override
    public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions options) {
        return delegate.get(id, fields, options);
    }

    @Override
    public CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions options) {
        return write(update.id(), () -> delegate.update(update, options));
    }

    @Override
    public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options) {
        return write(id, () -> delegate.remove(id, options));
    }

    @Override
    public void close() {
        delegate.close();
    }

}

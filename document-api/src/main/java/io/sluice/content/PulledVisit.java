package io.sluice.content;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.DocumentSelectionContext;
import io.sluice.document.select.ParentDocuments;
import io.sluice.document.select.SelectionContext;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The part of every engine's {@link Visit} that the contract fixes: at most one {@link #next} outstanding, refusal
 * once cancelled or once the engine is closed, and which stored entries a visit returns ({@link #live},
 * {@link #removed}). An engine implements {@link #read}: one bounded batch from where the visit stands.
 */
public abstract class PulledVisit implements Visit {

    private final String engine;
    private final BooleanSupplier engineClosed;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile boolean cancelled;
    /** The parents this batch's selection has read so far; written by next() before the batch's read starts. */
    private ParentDocuments batchParents = ParentDocuments.NONE;
    protected final VisitSpec spec;
    protected final Clock clock;

    /**
     * @param engine       the engine's name in messages, e.g. "embedded"
     * @param spec         what to visit
     * @param clock        the clock a selection's {@code now()} reads
     * @param engineClosed whether the engine is closed: {@link #next} then fails
     */
    protected PulledVisit(String engine, VisitSpec spec, Clock clock, BooleanSupplier engineClosed) {
        this.engine = engine;
        this.spec = spec;
        this.clock = clock;
        this.engineClosed = engineClosed;
    }

    @Override
    public final CompletableFuture<VisitBatch> next(int maxEntries, long maxBytes) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive, but was " + maxEntries);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive, but was " + maxBytes);
        }
        if (cancelled) {
            return CompletableFuture.failedFuture(new CancellationException("The visit was cancelled"));
        }
        if (engineClosed.getAsBoolean()) {
            return CompletableFuture.failedFuture(closed(null));
        }
        if (!busy.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(new IllegalStateException("Another next() of this visit is pending"));
        }
        CompletableFuture<VisitBatch> batch;
        try {
            if (spec.selection().isPresent()) {
                batchParents = parents().remembering(PARENTS_PER_BATCH);
            }
            batch = read(maxEntries, maxBytes);
        } catch (RuntimeException e) {
            batch = CompletableFuture.failedFuture(e);
        }
        // The next call may come as soon as the caller sees this batch, so the guard opens before it does.
        CompletableFuture<VisitBatch> result = new CompletableFuture<>();
        batch.whenComplete((value, failure) -> {
            busy.set(false);
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(value);
            }
        });
        return result;
    }

    /**
     * Reads the next batch of at most {@code maxEntries} entries and {@code maxBytes} bytes (as {@link #next(int, long)}
     * says), bounded in work, and moves the visit's position past it. Never called while another call's batch is
     * outstanding. May throw instead of failing the future.
     */
    protected abstract CompletableFuture<VisitBatch> read(int maxEntries, long maxBytes);

    /** How many parent documents a batch remembers: children in a batch often share parents. */
    private static final int PARENTS_PER_BATCH = 64;

    /**
     * The parent documents a selection's imported fields are read from, on the thread that runs {@link #read}. This
     * default has none (every imported field is null); an engine that can read its global documents overrides it.
     */
    protected ParentDocuments parents() {
        return ParentDocuments.NONE;
    }

    @Override
    public void cancel() {
        cancelled = true;
    }

    /** Whether {@link #cancel()} was called; a running read may stop early. */
    protected final boolean isCancelled() {
        return cancelled;
    }

    /**
     * Runs {@code read} on {@code executor}; a rejected hand-off means the engine is closing. {@code read} may
     * return null to say the visit was cancelled meanwhile.
     */
    protected final CompletableFuture<VisitBatch> readOn(Executor executor, Callable<VisitBatch> read) {
        CompletableFuture<VisitBatch> result = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    VisitBatch batch = cancelled ? null : read.call();
                    if (batch == null) {
                        result.completeExceptionally(new CancellationException("The visit was cancelled"));
                    } else {
                        result.complete(batch);
                    }
                } catch (Exception e) {
                    result.completeExceptionally(e);
                } catch (Error e) { // the visit fails instead of waiting forever; the thread's owner sees the error
                    result.completeExceptionally(e);
                    throw e;
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(closed(e));
        }
        return result;
    }

    /**
     * The entry a visit returns for a live {@code document} written at {@code timestamp}, taking {@code size} bytes
     * in the store, if the spec takes it.
     */
    protected final Optional<VisitEntry> live(Document document, long timestamp, long size) {
        if (!spec.timeRange().contains(timestamp) || !matches(DocumentSelectionContext.of(document, batchParents))) {
            return Optional.empty();
        }
        return Optional.of(VisitEntry.put(spec.fieldSet().filter(document), timestamp, size));
    }

    /**
     * The entry a visit returns for the live document {@code id} of {@code type}, written at {@code timestamp}, taking
     * {@code size} bytes in the store, if the spec takes it, for an engine that holds its fields as
     * {@code fieldsJson} (null if it does not hold them in that form for today's types). The document is decoded with
     * {@code decoder} only when the selection reads a field, the field set drops fields or there are no such bytes;
     * otherwise the entry carries the bytes and decodes on demand.
     */
    protected final Optional<VisitEntry> live(DocumentId id, DocumentType type, long timestamp, long size,
                                              FieldsJson fieldsJson, Supplier<Document> decoder) {
        if (!spec.timeRange().contains(timestamp)) {
            return Optional.empty();
        }
        Decoded document = new Decoded(decoder);
        if (!matches(DocumentSelectionContext.lazy(id, type, document, batchParents))) {
            return Optional.empty();
        }
        if (fieldsJson != null && spec.fieldSet().isEveryField()) {
            return Optional.of(VisitEntry.put(id, fieldsJson, document, timestamp, size));
        }
        return Optional.of(VisitEntry.put(spec.fieldSet().filter(document.get()), timestamp, size));
    }

    /** A document decoded at most once, on first use; used by one thread at a time. */
    private static final class Decoded implements Supplier<Document> {

        private Supplier<Document> decoder;
        private Document document;

        Decoded(Supplier<Document> decoder) {
            this.decoder = Objects.requireNonNull(decoder, "decoder");
        }

        @Override
        public Document get() {
            if (document == null) {
                document = decoder.get();
                decoder = null;
            }
            return document;
        }

    }

    /** The entry a visit returns for a tombstone of {@code id}, of {@code type}, if the spec takes it. */
    protected final Optional<VisitEntry> removed(DocumentId id, DocumentType type, long timestamp) {
        if (!spec.includeRemoves() || !spec.timeRange().contains(timestamp)
            || !matches(DocumentSelectionContext.removed(id, type))) {
            return Optional.empty();
        }
        return Optional.of(VisitEntry.remove(id, timestamp));
    }

    /** Whether any entry written at {@code timestamp} could be returned: decoding one outside it is wasted work. */
    protected final boolean inTimeRange(long timestamp) {
        return spec.timeRange().contains(timestamp);
    }

    private boolean matches(SelectionContext context) {
        Optional<DocumentSelection> selection = spec.selection();
        return selection.isEmpty() || selection.get().matches(context, clock);
    }

    private IllegalStateException closed(Throwable cause) {
        return new IllegalStateException("The " + engine + " content backend is closed", cause);
    }

}

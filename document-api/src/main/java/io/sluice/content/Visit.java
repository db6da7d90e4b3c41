package io.sluice.content;

import java.util.concurrent.CompletableFuture;

/**
 * A running visit, pulled by its consumer: the backend reads only as far as {@link #next} asks, so a slow consumer
 * slows the visit down instead of filling memory. At most one {@code next} may be outstanding at a time.
 *
 * <p>Closing a visit {@linkplain #cancel() cancels} it. Implementations are thread-safe.
 */
public interface Visit extends AutoCloseable {

    /**
     * Reads on: completes with at most {@code maxEntries} entries following the previous batch. A batch may hold fewer
     * entries, even none, while the visit is unfinished (a backend bounds the work of one call, e.g. when it skips
     * many non-matching documents); callers loop until {@link VisitBatch#isFinished()}. After the finishing batch,
     * further calls complete with an empty finished batch.
     *
     * <p>The future fails with {@link java.util.concurrent.CancellationException} once the visit is cancelled, with
     * {@link IllegalStateException} if another {@code next} is outstanding, with {@link ContentUnavailableException}
     * if the content layer cannot serve the visit now, and with another exception if the backend fails otherwise
     * (after any failure the visit is over; resume from the last batch's continuation).
     *
     * @throws IllegalArgumentException if {@code maxEntries} is not positive
     */
    default CompletableFuture<VisitBatch> next(int maxEntries) {
        return next(maxEntries, Long.MAX_VALUE);
    }

    /**
     * As {@link #next(int)}, and the {@linkplain VisitEntry#size() sizes} of the batch's entries add up to at most
     * {@code maxBytes}; an engine checks an entry's size before it decodes it. When the first entry a batch would
     * hold is alone larger than {@code maxBytes}, the batch holds no entry, reports that size in
     * {@link VisitBatch#blockedBytes()}, and leaves the visit where it stands. This is how a consumer bounds the memory
     * one batch takes, whatever the documents' sizes.
     *
     * @throws IllegalArgumentException if {@code maxEntries} or {@code maxBytes} is not positive
     */
    CompletableFuture<VisitBatch> next(int maxEntries, long maxBytes);

    /** Stops the visit and releases what it holds; idempotent. An outstanding {@code next} may still complete. */
    void cancel();

    /** Same as {@link #cancel()}. */
    @Override
    default void close() {
        cancel();
    }

}

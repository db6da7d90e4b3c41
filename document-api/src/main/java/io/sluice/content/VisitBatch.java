package io.sluice.content;

import java.util.List;
import java.util.Optional;

/**
 * What one {@link Visit#next} returned.
 *
 * @param entries the entries, in visiting order; may be empty even when the visit is not finished
 * @param continuation where a new visit resumes to return exactly the entries after these; empty once finished
 * @param atBucketBoundary whether the continuation points at the start of a bucket, i.e. every bucket this visit has
 *                         touched is finished (always true once finished)
 * @param percentFinished share of the visit's buckets finished, in [0, 100]; 100 exactly when finished, and never
 *                        smaller than in an earlier batch of the same visit
 * @param blockedBytes    0, or the {@linkplain VisitEntry#size() size} of the entry the batch stopped before because
 *                        it alone exceeds the {@code maxBytes} of the {@link Visit#next(int, long)} that returned it:
 *                        the visit goes past it only when asked with at least this many bytes
 */
public record VisitBatch(List<VisitEntry> entries, Optional<ProgressToken> continuation, boolean atBucketBoundary,
                         double percentFinished, long blockedBytes) {

    /**
     * @throws IllegalArgumentException if {@code percentFinished} is outside [0, 100] or 100 without being finished,
     *                                  or if {@code blockedBytes} is negative, or positive in a finished batch
     */
    public VisitBatch {
        entries = List.copyOf(entries);
        if (blockedBytes < 0 || (blockedBytes > 0 && continuation.isEmpty())) {
            throw new IllegalArgumentException("blockedBytes must be 0 when finished and never negative, but was "
                                               + blockedBytes);
        }
        if (!(percentFinished >= 0 && percentFinished <= 100)) {
            throw new IllegalArgumentException("percentFinished must be in [0, 100], but was " + percentFinished);
        }
        if (continuation.isEmpty() && percentFinished != 100) {
            throw new IllegalArgumentException("A finished visit is 100% finished, not " + percentFinished);
        }
    }

    /** A batch that did not stop before an oversized entry. */
    public VisitBatch(List<VisitEntry> entries, Optional<ProgressToken> continuation, boolean atBucketBoundary,
                      double percentFinished) {
        this(entries, continuation, atBucketBoundary, percentFinished, 0);
    }

    /** Whether the visit has returned everything: there is no continuation. */
    public boolean isFinished() {
        return continuation.isEmpty();
    }

}

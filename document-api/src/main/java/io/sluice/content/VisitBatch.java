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
 */
public record VisitBatch(List<VisitEntry> entries, Optional<ProgressToken> continuation, boolean atBucketBoundary,
                         double percentFinished) {

    /** @throws IllegalArgumentException if {@code percentFinished} is outside [0, 100] or 100 without being finished */
    public VisitBatch {
        entries = List.copyOf(entries);
        if (!(percentFinished >= 0 && percentFinished <= 100)) {
            throw new IllegalArgumentException("percentFinished must be in [0, 100], but was " + percentFinished);
        }
        if (continuation.isEmpty() && percentFinished != 100) {
            throw new IllegalArgumentException("A finished visit is 100% finished, not " + percentFinished);
        }
    }

    /** Whether the visit has returned everything: there is no continuation. */
    public boolean isFinished() {
        return continuation.isEmpty();
    }

}

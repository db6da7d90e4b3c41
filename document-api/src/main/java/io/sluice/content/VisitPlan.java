package io.sluice.content;

import io.sluice.document.BucketId;
import io.sluice.document.Slice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The buckets a visit walks, in order, and how far along a position is: shared by backends so they all slice, resume
 * and report progress alike.
 *
 * <p>Without explicit buckets the visit walks the superbuckets of its {@linkplain Slice slice}, a contiguous run of them,
 * in visiting order: one range of keys. Progress is the share of the slice's superbuckets wholly behind the position.
 * With explicit buckets from the
 * selection's {@linkplain io.sluice.document.select.BucketConstraint bucket constraint}, it walks just those (merged
 * where they overlap), ignoring the slice; progress is the share of them behind the position.
 *
 * <p>Backends read a {@link #unitAt unit} at a time from a position, and describe where they stopped with a
 * {@link #token token} for that position.
 */
public final class VisitPlan {

    private final int distributionBits;
    private final Slice slice;
    private final BucketSpace bucketSpace;
    private final List<KeyRange> explicitRanges; // null when walking all superbuckets
    private final DocumentKey start;

    private VisitPlan(int distributionBits, Slice slice, BucketSpace bucketSpace, List<KeyRange> explicitRanges,
                      DocumentKey start) {
        this.distributionBits = distributionBits;
        this.slice = slice;
        this.bucketSpace = bucketSpace;
        this.explicitRanges = explicitRanges;
        this.start = start;
    }

    /**
     * The plan for {@code spec} on a store with {@code distributionBits} (1..32) distribution bits.
     *
     * @throws InvalidProgressTokenException if the spec's token does not fit the spec or the distribution bits
     */
    public static VisitPlan of(VisitSpec spec, int distributionBits) {
        if (distributionBits < 1 || distributionBits > 32) {
            throw new IllegalArgumentException("Distribution bits must be in [1, 32], but was " + distributionBits);
        }
        spec.progress().ifPresent(token -> token.checkUsableFor(spec.slice(), spec.bucketSpace(), distributionBits));
        Optional<Set<BucketId>> buckets = spec.selection().flatMap(selection -> selection.bucketConstraint().buckets());
        DocumentKey start = spec.progress().map(ProgressToken::position).orElse(DocumentKey.bucketStart(0));
        return new VisitPlan(distributionBits, spec.slice(), spec.bucketSpace(),
                             buckets.map(VisitPlan::merged).orElse(null), start);
    }

    private static List<KeyRange> merged(Set<BucketId> buckets) {
        List<KeyRange> ranges = new ArrayList<>();
        for (BucketId bucket : buckets) {
            long first = bucket.orderKey();
            long span = bucket.usedBits() == 0 ? -1L : (1L << (64 - bucket.usedBits())) - 1;
            ranges.add(new KeyRange(first, first + span));
        }
        ranges.sort(Comparator.comparing(KeyRange::first, Long::compareUnsigned));
        List<KeyRange> merged = new ArrayList<>();
        for (KeyRange range : ranges) {
            KeyRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && Long.compareUnsigned(range.first(), last.last()) <= 0) {
                long end = Long.compareUnsigned(range.last(), last.last()) > 0 ? range.last() : last.last();
                merged.set(merged.size() - 1, new KeyRange(last.first(), end));
            } else {
                merged.add(range);
            }
        }
        return List.copyOf(merged);
    }

    /** Where the visit starts: its token's position, or before everything. */
    public DocumentKey start() {
        return start;
    }

    /** Whether the visit walks explicit buckets from its selection, so slicing does not apply. */
    public boolean hasExplicitBuckets() {
        return explicitRanges != null;
    }

    /**
     * The unit (a superbucket of the slice's run, or an explicit bucket range) holding {@code position}, or else the first
     * one after it;
     * empty if there is none, i.e. a visit at {@code position} is finished.
     */
    public Optional<KeyRange> unitAt(DocumentKey position) {
        if (explicitRanges != null) {
            int index = explicitIndex(position);
            return index < explicitRanges.size() ? Optional.of(explicitRanges.get(index)) : Optional.empty();
        }
        long cursor = Math.max(cursorOf(position), slice.firstCursor(distributionBits));
        if (cursor >= slice.endCursor(distributionBits)) {
            return Optional.empty();
        }
        int shift = 64 - distributionBits;
        long first = cursor << shift;
        return Optional.of(new KeyRange(first, first + ((1L << shift) - 1)));
    }

    /**
     * Percentage of the visit's superbuckets (or explicit ranges) wholly before {@code position}; 100 exactly when the
     * visit is finished there.
     */
    public double percentFinished(DocumentKey position) {
        if (explicitRanges != null) {
            return explicitRanges.isEmpty() ? 100 : 100.0 * explicitIndex(position) / explicitRanges.size();
        }
        long first = slice.firstCursor(distributionBits);
        long end = slice.endCursor(distributionBits);
        long cursor = Math.min(Math.max(cursorOf(position), first), end);
        return end == first ? 100 : 100.0 * (cursor - first) / (end - first);
    }

    /** A token to resume at {@code position}. */
    public ProgressToken token(DocumentKey position) {
        return ProgressToken.of(distributionBits, slice, bucketSpace, position);
    }

    private int explicitIndex(DocumentKey position) {
        int index = 0;
        while (index < explicitRanges.size() && explicitRanges.get(index).isBefore(position.orderKey())) {
            index++;
        }
        return index;
    }

    /** The visiting cursor of {@code position}'s superbucket, in {@code [0, 2^distributionBits)}. */
    private long cursorOf(DocumentKey position) {
        return position.orderKey() >>> (64 - distributionBits);
    }

}

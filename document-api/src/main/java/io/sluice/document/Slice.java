package io.sluice.document;

/**
 * One of {@code slices} disjoint parts of a bucket space, as selected by a visit's {@code slices}/{@code sliceId}.
 *
 * <p>A document belongs to slice {@code bitrev_db(location & (2^db - 1)) mod slices}, where {@code db} is the number of
 * distribution bits: the visiting cursor of its superbucket, modulo {@code slices}. The assignment depends only on the
 * id, so it is stable across pages; every document is in exactly one slice, so the slices are disjoint and together
 * cover everything. Whole superbuckets fall in one slice.
 *
 * <p>That is the split of the engines that walk superbuckets in visiting order. An engine may split otherwise, as
 * long as the slices of any {@code slices} are disjoint, cover everything, and depend on nothing but the id and the
 * store's settings: an engine that keeps superbuckets as partitions of a hash-partitioned store may give each slice an
 * equal range of the hash ring, so whole superbuckets still fall in one slice.
 *
 * @param slices number of slices, at least 1
 * @param sliceId this slice, in {@code [0, slices)}
 */
public record Slice(int slices, int sliceId) {

    /** The single slice that is everything. */
    public static final Slice ALL = new Slice(1, 0);

    /** @throws IllegalArgumentException with the handler's wording if the pair is out of range */
    public Slice {
        if (slices < 1) {
            throw new IllegalArgumentException("slices must be positive, but was " + slices);
        }
        if (sliceId < 0 || sliceId >= slices) {
            throw new IllegalArgumentException("sliceId must be in [0, " + slices + "), but was " + sliceId);
        }
    }

    /** Shorthand for the constructor. */
    public static Slice of(int slices, int sliceId) {
        return new Slice(slices, sliceId);
    }

    /** The slice index, in {@code [0, slices)}, of a document for {@code distributionBits} (1..32). */
    public static int indexOf(DocumentId id, int slices, int distributionBits) {
        return indexOf(BucketId.of(id), slices, distributionBits);
    }

    /** The slice index of a bucket (with at least {@code distributionBits} used bits). */
    public static int indexOf(BucketId bucket, int slices, int distributionBits) {
        return (int) Long.remainderUnsigned(bucket.visitingCursor(distributionBits), slices);
    }

    /** Whether the document is in this slice when storage uses {@code distributionBits} (1..32). */
    public boolean contains(DocumentId id, int distributionBits) {
        return indexOf(id, slices, distributionBits) == sliceId;
    }

    /** Whether the bucket is in this slice; {@code bucket} must have at least {@code distributionBits} used bits. */
    public boolean contains(BucketId bucket, int distributionBits) {
        return indexOf(bucket, slices, distributionBits) == sliceId;
    }

    /** Whether the {@code n}-th superbucket in visiting order is in this slice. */
    public boolean containsCursor(long n) {
        return Long.remainderUnsigned(n, slices) == sliceId;
    }

}

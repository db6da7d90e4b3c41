package io.sluice.document;

/**
 * One of {@code slices} disjoint parts of a bucket space, as selected by a visit's {@code slices}/{@code sliceId}.
 *
 * <p>With {@code db} distribution bits there are {@code N = 2^db} superbuckets, numbered by their visiting cursor
 * {@code bitrev_db(location & (N - 1))}. Slice {@code i} of {@code n} holds the contiguous run of cursors
 * {@code [floor(i N / n), floor((i + 1) N / n))}: a document's slice depends only on its id, so it is stable across
 * pages; every document is in exactly one slice, so the slices are disjoint and together cover everything; whole
 * superbuckets fall in one slice, and the runs differ in length by at most one superbucket. With more slices than
 * superbuckets some slices are empty.
 *
 * <p>Vespa deals out the cursors round-robin instead ({@code cursor mod slices}); the wire contract only asks for a
 * deterministic, disjoint, covering split that is stable across the pages of a slice. A contiguous run is one range of
 * keys in a store ordered by cursor, so a slice reads its own blocks once, where a round-robin slice would read (and
 * decompress) nearly every block of the store to pick out its own superbuckets from among the other slices'.
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
        return indexOfCursor(bucket.visitingCursor(distributionBits), slices, distributionBits);
    }

    /**
     * The slice holding superbucket cursor {@code cursor} (in {@code [0, 2^distributionBits)}): the largest {@code i}
     * with {@code floor(i N / slices) <= cursor}, that is {@code floor(((cursor + 1) slices - 1) / N)}. Exact in a
     * long: {@code cursor + 1 <= 2^32} and {@code slices < 2^31}.
     */
    static int indexOfCursor(long cursor, int slices, int distributionBits) {
        return (int) (((cursor + 1) * slices - 1) >>> distributionBits);
    }

    /** Whether the document is in this slice when storage uses {@code distributionBits} (1..32). */
    public boolean contains(DocumentId id, int distributionBits) {
        return indexOf(id, slices, distributionBits) == sliceId;
    }

    /** Whether the bucket is in this slice; {@code bucket} must have at least {@code distributionBits} used bits. */
    public boolean contains(BucketId bucket, int distributionBits) {
        return indexOf(bucket, slices, distributionBits) == sliceId;
    }

    /** Whether the superbucket with visiting cursor {@code cursor} is in this slice. */
    public boolean containsCursor(long cursor, int distributionBits) {
        return cursor >= firstCursor(distributionBits) && cursor < endCursor(distributionBits);
    }

    /** The first superbucket cursor of this slice under {@code distributionBits}; equal to the end when it is empty. */
    public long firstCursor(int distributionBits) {
        return startOf(sliceId, distributionBits);
    }

    /** The cursor after the last superbucket of this slice under {@code distributionBits}. */
    public long endCursor(int distributionBits) {
        return startOf(sliceId + 1, distributionBits);
    }

    private long startOf(long index, int distributionBits) {
        if (distributionBits < 1 || distributionBits > 32) {
            throw new IllegalArgumentException("Distribution bits must be in [1, 32], but was " + distributionBits);
        }
        return (index << distributionBits) / slices; // < 2^63: index <= 2^31 and distributionBits <= 32
    }

}

package io.sluice.document;

/**
 * A Vespa bucket id: a 64-bit value whose top 6 bits count how many of its low bits are used.
 *
 * <p>A document's own bucket uses 58 bits: bits 0..31 are the low 32 bits of its {@linkplain DocumentId#location()
 * location} and bits 32..57 come from its {@linkplain GlobalId global id}. Storage groups documents into the
 * <em>superbucket</em> of {@code distributionBits} used bits, which keeps only the low location bits; so ids with the
 * same {@code n=} or {@code g=} always share a superbucket.
 *
 * <p>Visiting walks buckets in order of their bit-reversed id; {@link #orderKey()} exposes that order as an unsigned
 * 64-bit key so a backend can store documents sorted by it and scan a bucket as one contiguous key range.
 */
public final class BucketId implements Comparable<BucketId> {

    /** Most used bits a bucket id can have. */
    public static final int MAX_USED_BITS = 58;
    private static final int COUNT_SHIFT = 58;
    private static final long LOCATION_MASK = 0xFFFF_FFFFL;
    private static final long GID_MASK = 0x03FF_FFFF_0000_0000L;

    private final int usedBits;
    private final long bits;

    private BucketId(int usedBits, long bits) {
        this.usedBits = usedBits;
        this.bits = bits & mask(usedBits);
    }

    /** The bucket with {@code usedBits} used bits whose low bits are those of {@code bits}; higher bits are dropped. */
    public static BucketId of(int usedBits, long bits) {
        if (usedBits < 0 || usedBits > MAX_USED_BITS) {
            throw new IllegalArgumentException("Used bits must be in [0, " + MAX_USED_BITS + "], but was " + usedBits);
        }
        return new BucketId(usedBits, bits);
    }

    /** Whether {@code raw} is a bucket's raw 64-bit value: its count bits say at most {@link #MAX_USED_BITS}. */
    public static boolean isRaw(long raw) {
        return (raw >>> COUNT_SHIFT) <= MAX_USED_BITS;
    }

    /** The bucket whose raw 64-bit value (count bits included) is {@code raw}. */
    public static BucketId ofRaw(long raw) {
        return of((int) (raw >>> COUNT_SHIFT), raw);
    }

    /** The 58-bit bucket of a document, bit-exact with Vespa's {@code BucketIdFactory}. */
    public static BucketId of(DocumentId id) {
        long gidBits = id.globalId().hashBits();
        return new BucketId(MAX_USED_BITS, (gidBits & GID_MASK) | (id.location() & LOCATION_MASK));
    }

    /** The superbucket of a document for {@code distributionBits} (at most 32): its low location bits. */
    public static BucketId superbucket(DocumentId id, int distributionBits) {
        return of(id).withUsedBits(distributionBits);
    }

    /**
     * The {@code n}-th superbucket in visiting order for {@code distributionBits}: the one whose low bits are the
     * bit-reversal of {@code n}. Cursor {@code n} ranges over {@code [0, 2^distributionBits)}.
     */
    public static BucketId nthInVisitingOrder(long n, int distributionBits) {
        checkDistributionBits(distributionBits);
        if (n < 0 || (distributionBits < 63 && n >= 1L << distributionBits)) {
            throw new IllegalArgumentException("Cursor must be in [0, 2^" + distributionBits + "), but was " + n);
        }
        return of(distributionBits, reverse(n, distributionBits));
    }

    /** The cursor of this bucket's superbucket for {@code distributionBits}: the inverse of {@link #nthInVisitingOrder}. */
    public long visitingCursor(int distributionBits) {
        checkDistributionBits(distributionBits);
        if (distributionBits > usedBits) {
            throw new IllegalArgumentException(this + " has fewer than " + distributionBits + " used bits");
        }
        return reverse(bits & mask(distributionBits), distributionBits);
    }

    static void checkDistributionBits(int distributionBits) {
        if (distributionBits < 1 || distributionBits > 32) {
            throw new IllegalArgumentException("Distribution bits must be in [1, 32], but was " + distributionBits);
        }
    }

    private static long reverse(long value, int width) {
        return Long.reverse(value) >>> (64 - width);
    }

    private static long mask(int usedBits) {
        return usedBits == 64 ? -1L : (1L << usedBits) - 1;
    }

    /** This bucket cut down (or extended with zero bits) to {@code usedBits} used bits. */
    public BucketId withUsedBits(int usedBits) {
        return of(usedBits, bits);
    }

    /** Number of used bits. */
    public int usedBits() {
        return usedBits;
    }

    /** The used bits, without the count. */
    public long id() {
        return bits;
    }

    /** The raw 64-bit value: count in the top 6 bits, used bits below. */
    public long raw() {
        return ((long) usedBits << COUNT_SHIFT) | bits;
    }

    /** Whether {@code other} is this bucket or one of its sub-buckets. */
    public boolean contains(BucketId other) {
        return other.usedBits >= usedBits && (other.bits & mask(usedBits)) == bits;
    }

    /**
     * An unsigned key whose order is visiting order: the used bits, bit-reversed into the top of the key. Every
     * sub-bucket's key falls in {@code [orderKey(), orderKey() + 2^(64 - usedBits))} (unsigned), so sorting documents by
     * the key of their own bucket lays each bucket and superbucket out contiguously. Compare with
     * {@link Long#compareUnsigned}.
     */
    public long orderKey() {
        return Long.reverse(bits);
    }

    /** Orders by {@link #orderKey()} (unsigned), then fewer used bits first. */
    @Override
    public int compareTo(BucketId other) {
        int byKey = Long.compareUnsigned(orderKey(), other.orderKey());
        return byKey != 0 ? byKey : Integer.compare(usedBits, other.usedBits);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BucketId && ((BucketId) other).raw() == raw();
    }

    @Override
    public int hashCode() {
        return Long.hashCode(raw());
    }

    /** As Vespa prints it: {@code BucketId(0x<raw as 16 hex digits>)}. */
    @Override
    public String toString() {
        return String.format("BucketId(0x%016x)", raw());
    }

}

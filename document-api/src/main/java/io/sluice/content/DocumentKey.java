package io.sluice.content;

import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;

import java.util.Objects;

/**
 * A position in visiting order. Documents are ordered by the {@linkplain BucketId#orderKey() order key} of their own
 * (58-bit) bucket as an unsigned number, then by their canonical id string in code point order (which is the order of
 * its UTF-8 bytes). So every bucket, and every superbucket, is one contiguous run of keys, and superbuckets come in
 * visiting order; a store keyed by the 8 big-endian bytes of the order key followed by the UTF-8 id sorts the same way.
 *
 * <p>The key with an empty {@code id} sorts before every document with the same order key: it marks the start of
 * the bucket whose order key that is.
 *
 * @param orderKey unsigned order key of the document's bucket
 * @param id the canonical id string, or empty for a bucket start
 */
public record DocumentKey(long orderKey, String id) implements Comparable<DocumentKey> {

    public DocumentKey {
        Objects.requireNonNull(id, "id");
    }

    /** The key of a document. */
    public static DocumentKey of(DocumentId id) {
        return new DocumentKey(BucketId.of(id).orderKey(), id.toString());
    }

    /** The position before every document whose order key is at least {@code orderKey} (unsigned). */
    public static DocumentKey bucketStart(long orderKey) {
        return new DocumentKey(orderKey, "");
    }

    /** Whether this is a bucket start rather than a document's key. */
    public boolean isBucketStart() {
        return id.isEmpty();
    }

    @Override
    public int compareTo(DocumentKey other) {
        int byKey = Long.compareUnsigned(orderKey, other.orderKey);
        return byKey != 0 ? byKey : compareCodePoints(id, other.id);
    }

    /**
     * Code point order, unlike {@link String#compareTo}, which orders by UTF-16 units. Compares units, and only where
     * they first differ moves surrogates (code points above U+FFFF) above U+E000–U+FFFF, where code point order puts
     * them: a comparison in a sorted map's hot path, so no code point decoding.
     */
    static int compareCodePoints(String a, String b) {
        int common = Math.min(a.length(), b.length());
        for (int i = 0; i < common; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca != cb) {
                return Integer.compare(codePointRank(ca), codePointRank(cb));
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    private static int codePointRank(char unit) {
        if (unit < Character.MIN_SURROGATE) {
            return unit;
        }
        return unit <= Character.MAX_SURROGATE ? unit + 0x2000 : unit - 0x800;
    }

    @Override
    public String toString() {
        return String.format("DocumentKey(0x%016x, '%s')", orderKey, id);
    }

}

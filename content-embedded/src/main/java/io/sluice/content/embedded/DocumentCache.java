package io.sluice.content.embedded;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.rocksdb.ColumnFamilyHandle;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Stored values of recently read documents, in the JVM, in front of the store: as a Vespa content node caches its
 * document store. A GET of a cached document costs a hash lookup instead of RocksDB's {@code Get} through JNI (row
 * cache, table cache, version lookups and two array copies), which was about 3 us of a 10 us embedded GET
 * (async-profiler, h2c 4x256 GETs of 1,000 stored 1 KiB documents, 2026-11-29). Bounded by the bytes of its keys
 * and values; Caffeine evicts by frequency and recency (W-TinyLFU), so a scan of once-read documents does not push
 * out the hot ones.
 *
 * <p>It is keyed by the UTF-8 bytes of a document's id, which name its store key (the bucket's order key in front
 * is a function of the id), so a read answered here never computes the bucket, two MD5s, 0.5 us of an embedded
 * GET. Reads fill it ({@link #stamp} before reading the store, {@link #offer} after), the store's one writer keeps it
 * true ({@link #written} with the store key, after each batch is in the store and before any of its operations is
 * answered). A read racing a write of the same document must not leave the older value behind: each id hashes to one
 * of {@value #STRIPES} stripes whose count the writer raises after writing and before touching the entry, and an offer
 * whose stripe was raised since its stamp is dropped. So either the offer sees the raised count, or it came before the
 * writer's replacement of the entry, which then overwrites it.
 *
 * <p>Cached values are shared between readers, which never change them (as the arrays RocksDB returns, they are
 * only read).
 */
final class DocumentCache {

    /** Stripes of write counts; a write makes offers of its stripe's keys that were read before it be dropped. */
    static final int STRIPES = 4096;
    /** Bytes an entry costs beyond its key and value: the entry, the key object, the array headers. */
    static final int ENTRY_OVERHEAD_BYTES = 112;

    private static final DocumentCache DISABLED = new DocumentCache(0);

    private final Cache<Key, byte[]> entries; // null when disabled
    private final AtomicLongArray writes = new AtomicLongArray(STRIPES);
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    private DocumentCache(long maxBytes) {
        // Maintenance (eviction) runs on the threads that use the cache, a little at a time and never waiting for a
        // lock, rather than as tasks for the common pool: no thread wake-up per write on a 2-core machine.
        this.entries = maxBytes <= 0 ? null : Caffeine.newBuilder()
                                                      .maximumWeight(maxBytes)
                                                      .weigher(DocumentCache::weight)
                                                      .executor(Runnable::run)
                                                      .build();
    }

    /** A cache of at most {@code maxBytes} of keys and values; 0 for none. */
    static DocumentCache of(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative, was " + maxBytes);
        }
        return maxBytes == 0 ? DISABLED : new DocumentCache(maxBytes);
    }

    /** Whether this caches anything. */
    boolean enabled() {
        return entries != null;
    }

    /**
     * The stored value of the document whose id's UTF-8 bytes are {@code id} in {@code family} if cached, else null
     * (and the read counts as a miss).
     */
    byte[] get(ColumnFamilyHandle family, byte[] id) {
        if (entries == null) {
            return null;
        }
        byte[] value = entries.getIfPresent(new Key(family, id, 0));
        (value != null ? hits : misses).increment();
        return value;
    }

    /** The write count of {@code id}'s stripe: take it before reading the store, give it to {@link #offer}. */
    long stamp(byte[] id) {
        return entries == null ? 0 : writes.get(stripe(hash(id, 0)));
    }

    /**
     * Caches {@code value}, read from the store after {@link #stamp} gave {@code stamp}, unless a write of the same
     * stripe came since (it may have been of this key, and then {@code value} is older than the store's). A null
     * value (no such document) is not cached.
     */
    void offer(ColumnFamilyHandle family, byte[] id, long stamp, byte[] value) {
        if (entries == null || value == null) {
            return;
        }
        Key key = new Key(family, id, 0);
        int stripe = stripe(key.idHash);
        entries.asMap().compute(key, (k, cached) -> writes.get(stripe) == stamp ? value : cached);
    }

    /**
     * Keeps the cache true after the writer wrote {@code value} (null: deleted) for {@code storeKey} (a key of
     * {@link StoreKeys}, whose bytes after the order key are the document's id) in {@code family}:
     * a cached entry of it becomes the new value; an uncached key stays uncached. Call it once the write is in the
     * store, before the operation is answered. When the write failed, and so may or may not be in the store, pass
     * {@code known = false}: the entry is dropped.
     */
    void written(ColumnFamilyHandle family, byte[] storeKey, byte[] value, boolean known) {
        if (entries == null) {
            return;
        }
        Key cacheKey = new Key(family, storeKey, StoreKeys.ORDER_KEY_BYTES);
        writes.incrementAndGet(stripe(cacheKey.idHash));
        if (value == null || !known) {
            entries.invalidate(cacheKey);
        } else {
            entries.asMap().computeIfPresent(cacheKey, (k, cached) -> value);
        }
    }

    /** Reads answered from the cache so far. */
    long hits() {
        return hits.sum();
    }

    /** Reads that found nothing cached so far (and went to the store). */
    long misses() {
        return misses.sum();
    }

    /** Bytes the cached entries take now, by the weights the bound counts. */
    long bytes() {
        return entries == null ? 0 : entries.policy().eviction().map(eviction -> eviction.weightedSize().orElse(0))
                                            .orElse(0L);
    }

    /** Applies pending evictions now; for tests, which check the bound. */
    void cleanUp() {
        if (entries != null) {
            entries.cleanUp();
        }
    }

    private static int weight(Key key, byte[] value) {
        long weight = (long) key.bytes.length - key.from + value.length + ENTRY_OVERHEAD_BYTES;
        return (int) Math.min(Integer.MAX_VALUE, weight);
    }

    private static int stripe(int idHash) {
        return (idHash ^ (idHash >>> 16)) & (STRIPES - 1);
    }

    /** {@link Arrays#hashCode(byte[])} of {@code bytes} from {@code from} on. */
    private static int hash(byte[] bytes, int from) {
        int hash = 1;
        for (int i = from; i < bytes.length; i++) {
            hash = 31 * hash + bytes[i];
        }
        return hash;
    }

    /**
     * A document's id bytes, {@code bytes} from {@code from} on, in one column family; the family compares by
     * identity, as the store holds one handle each.
     */
    private static final class Key {

        final ColumnFamilyHandle family;
        final byte[] bytes;
        final int from;
        final int idHash;
        final int hash;

        Key(ColumnFamilyHandle family, byte[] bytes, int from) {
            this.family = family;
            this.bytes = bytes;
            this.from = Math.min(from, bytes.length);
            this.idHash = DocumentCache.hash(bytes, this.from);
            this.hash = 31 * System.identityHashCode(family) + idHash;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key that && family == that.family
                   && Arrays.equals(bytes, from, bytes.length, that.bytes, that.from, that.bytes.length);
        }

        @Override
        public int hashCode() {
            return hash;
        }

    }

}

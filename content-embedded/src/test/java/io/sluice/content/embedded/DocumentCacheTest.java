package io.sluice.content.embedded;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DocumentCacheTest {

    @TempDir(factory = MemoryBackedTempDir.class)
    Path directory;

    private ScratchRocks scratch;
    private ColumnFamilyHandle family;
    private ColumnFamilyHandle otherFamily;
    private final DocumentCache cache = DocumentCache.of(1 << 20);

    @BeforeEach
    void open() throws RocksDBException {
        scratch = ScratchRocks.open(directory);
        family = scratch.db().getDefaultColumnFamily();
        otherFamily = scratch.db().createColumnFamily(new ColumnFamilyDescriptor(bytes("other")));
    }

    @AfterEach
    void close() {
        otherFamily.close();
        scratch.close();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A store key ending with the id {@code id}, as the writer tells the cache of it. */
    private static byte[] storeKey(byte[] id) {
        return StoreKeys.of(0x0123_4567_89ab_cdefL, id);
    }

    /** Reads {@code key} as the store's operations do, the store's value being {@code stored}. */
    private byte[] read(byte[] key, byte[] stored) {
        byte[] value = cache.get(family, key);
        if (value == null) {
            long stamp = cache.stamp(key);
            value = stored;
            cache.offer(family, key, stamp, value);
        }
        return value;
    }

    @Test
    void read_ofAnOfferedValue_isAHit() {
        byte[] key = bytes("a");

        assertArrayEquals(bytes("v1"), read(key, bytes("v1")));
        assertArrayEquals(bytes("v1"), read(key, bytes("not read")));

        assertEquals(1, cache.hits());
        assertEquals(1, cache.misses());
        assertTrue(cache.bytes() > 0);
    }

    @Test
    void offer_ofAbsentDocument_cachesNothing() {
        byte[] key = bytes("a");

        cache.offer(family, key, cache.stamp(key), null);

        assertNull(cache.get(family, key));
    }

    @Test
    void offer_readBeforeAWriteOfTheSameKey_isDropped() {
        byte[] key = bytes("a");
        long stamp = cache.stamp(key); // a reader reads v1 from the store ...
        cache.written(family, storeKey(key), bytes("v2"), true); // ... the writer writes v2 (uncached: stays so) ...

        cache.offer(family, key, stamp, bytes("v1")); // ... then the reader offers what it read

        assertNull(cache.get(family, key));
        assertArrayEquals(bytes("v2"), read(key, bytes("v2")));
    }

    @Test
    void offer_beforeTheWritersUpdate_isOverwrittenByIt() {
        byte[] key = bytes("a");
        cache.offer(family, key, cache.stamp(key), bytes("v1"));

        cache.written(family, storeKey(key), bytes("v2"), true);

        assertArrayEquals(bytes("v2"), cache.get(family, key));
    }

    @Test
    void written_deleteOrUnknownOutcome_dropsTheEntry() {
        byte[] deleted = bytes("deleted");
        byte[] failed = bytes("failed");
        cache.offer(family, deleted, cache.stamp(deleted), bytes("v1"));
        cache.offer(family, failed, cache.stamp(failed), bytes("v1"));

        cache.written(family, storeKey(deleted), null, true);
        cache.written(family, storeKey(failed), bytes("v2"), false);

        assertNull(cache.get(family, deleted));
        assertNull(cache.get(family, failed));
    }

    @Test
    void written_ofUncachedKey_leavesItUncached() {
        byte[] key = bytes("a");

        cache.written(family, storeKey(key), bytes("v2"), true);

        assertNull(cache.get(family, key));
        assertEquals(0, cache.bytes());
    }

    @Test
    void offer_afterAWriteOfAnotherStripe_isCached() {
        byte[] key = bytes("a");
        byte[] other = otherStripe(key);
        long stamp = cache.stamp(key);
        cache.written(family, storeKey(other), bytes("x"), true);

        cache.offer(family, key, stamp, bytes("v1"));

        assertArrayEquals(bytes("v1"), cache.get(family, key));
    }

    private byte[] otherStripe(byte[] key) {
        for (int i = 0; ; i++) {
            byte[] candidate = bytes("b" + i);
            long before = cache.stamp(key);
            cache.written(family, storeKey(candidate), null, true);
            boolean sameStripe = cache.stamp(key) != before;
            if (!sameStripe) {
                return candidate;
            }
        }
    }

    @Test
    void families_areKeptApart() {
        byte[] key = bytes("a");
        cache.offer(family, key, cache.stamp(key), bytes("documents"));

        assertNull(cache.get(otherFamily, key));
        cache.written(otherFamily, storeKey(key), bytes("global"), true);
        assertArrayEquals(bytes("documents"), cache.get(family, key));
    }

    @Test
    void bytes_stayWithinTheBound() {
        DocumentCache small = DocumentCache.of(64 << 10);
        byte[] value = new byte[1000];
        for (int i = 0; i < 1000; i++) {
            byte[] key = bytes("key-" + i);
            small.offer(family, key, small.stamp(key), value);
        }

        small.cleanUp();

        assertTrue(small.bytes() <= 64 << 10, small.bytes() + " bytes cached");
        assertTrue(small.bytes() >= 32 << 10, "a bounded cache still holds about its bound: " + small.bytes());
    }

    @Test
    void noBytes_isNoCache() {
        DocumentCache none = DocumentCache.of(0);
        byte[] key = bytes("a");

        none.offer(family, key, none.stamp(key), bytes("v1"));

        assertFalse(none.enabled());
        assertNull(none.get(family, key));
        assertEquals(0, none.hits() + none.misses());
        assertThrows(IllegalArgumentException.class, () -> DocumentCache.of(-1));
    }

}

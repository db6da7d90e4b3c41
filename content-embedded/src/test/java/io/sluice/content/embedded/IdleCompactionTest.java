package io.sluice.content.embedded;

import io.sluice.content.BucketSpace;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.PrimitiveType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdleCompactionTest {

    private static final DocumentTypes TYPES =
            DocumentTypes.of(List.of(DocumentType.builder("music").field("title", PrimitiveType.STRING).build()));

    @TempDir(factory = MemoryBackedTempDir.class)
    Path directory;

    private RocksStore store;
    private ColumnFamilyHandle documents;
    private int written = 0;

    @BeforeEach
    void open() {
        store = RocksStore.open(EmbeddedOptions.builder(directory, TYPES).minFreeDiskBytes(0)
                                               .blockCacheBytes(8 << 20).writeBufferBytes(8 << 20).build());
        documents = store.families(BucketSpace.DEFAULT).documents;
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void idleStoreWithL0Files_lowersTheTrigger_andRocksDbCompactsThem_untilWritesResume() throws Exception {
        writeL0File();
        writeL0File();
        IdleCompaction compaction = new IdleCompaction(store.db(), List.of(documents));
        writeL0File();

        compaction.check(); // a write since it was made: not idle
        assertFalse(compaction.lowered());
        assertEquals(RocksStore.L0_COMPACTION_TRIGGER, trigger());
        assertEquals(3, l0Files(), "three L0 files are below the trigger: nothing compacts them");

        compaction.check(); // nothing written since the last check
        assertTrue(compaction.lowered());
        assertEquals(1, trigger());
        awaitNoL0Files();
        compaction.check(); // the compaction wrote nothing through the write path: still idle, still lowered
        assertTrue(compaction.lowered());

        write("after");
        compaction.check();

        assertFalse(compaction.lowered());
        assertEquals(RocksStore.L0_COMPACTION_TRIGGER, trigger());
        for (int i = 0; i < written; i++) {
            assertTrue(store.db().get(documents, key(i)) != null, "document " + i + " is still there");
        }
    }

    @Test
    void idleStoreWithFewSmallL0FilesOverALargeBaseLevel_leavesThem_untilAsManyAsRocksDbsDefaultTrigger()
            throws Exception {
        Random random = new Random(42);
        for (int i = 0; i < 5000; i++) {
            byte[] value = new byte[200];
            random.nextBytes(value); // incompressible: the base level is ~1 MB
            store.db().put(documents, key(written++), value);
        }
        store.flush();
        store.db().compactRange(documents);
        assertEquals(0, l0Files());
        IdleCompaction compaction = new IdleCompaction(store.db(), List.of(documents));

        for (int file = 1; file < IdleCompaction.ROCKSDB_DEFAULT_TRIGGER; file++) {
            writeL0File();
            compaction.check(); // writes since the last check
            compaction.check(); // idle, but the L0 files are a small share of the family and fewer than the default's
            assertFalse(compaction.lowered());
            assertEquals(file, l0Files());
        }
        writeL0File();
        compaction.check();
        compaction.check();

        assertTrue(compaction.lowered(), "as many L0 files as RocksDB's default trigger are compacted when idle");
        awaitNoL0Files();
    }

    @Test
    void idleStoreWithoutL0Files_leavesTheTrigger() throws Exception {
        IdleCompaction compaction = new IdleCompaction(store.db(), List.of(documents));
        write("in the memtable only");

        compaction.check();
        compaction.check();

        assertFalse(compaction.lowered());
        assertEquals(RocksStore.L0_COMPACTION_TRIGGER, trigger());
    }

    private void writeL0File() throws RocksDBException {
        for (int i = 0; i < 10; i++) {
            write("value " + written);
        }
        store.flush();
    }

    private void write(String value) throws RocksDBException {
        store.db().put(documents, key(written++), value.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private int trigger() throws RocksDBException {
        return store.db().getOptions(documents).level0FileNumCompactionTrigger();
    }

    /** The documents' L0 files (a text property: {@code getLongProperty} does not know it). */
    private long l0Files() throws RocksDBException {
        return Long.parseLong(store.db().getProperty(documents, "rocksdb.num-files-at-level0").trim());
    }

    /** Waits for RocksDB's background compaction (an event, not an amount of time; fails after a minute). */
    private void awaitNoL0Files() throws Exception {
        for (int i = 0; i < 6000 && l0Files() > 0; i++) {
            Thread.sleep(10);
        }
        assertEquals(0, l0Files());
    }

}

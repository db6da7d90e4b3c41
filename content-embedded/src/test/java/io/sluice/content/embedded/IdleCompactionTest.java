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
import org.rocksdb.CompactionOptions;
import org.rocksdb.LevelMetaData;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileMetaData;

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

    /** A base level size that makes a small store as deep as a large one is with RocksDB's default. */
    private static final long BASE_LEVEL_BYTES = 64 << 10;

    private final Random random = new Random(42);
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
        IdleCompaction compaction = idleCompaction();
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
        for (int i = 0; i < 5000; i++) {
            byte[] value = new byte[200];
            random.nextBytes(value); // incompressible: the base level is ~1 MB
            store.db().put(documents, key(written++), value);
        }
        store.flush();
        store.db().compactRange(documents);
        assertEquals(0, l0Files());
        IdleCompaction compaction = idleCompaction();

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
    void storeIsIdleAfterTheGivenNumberOfChecksWithoutWrites_andAWriteStartsTheCountAgain() throws Exception {
        writeL0File();
        IdleCompaction compaction = idleCompaction(3);

        compaction.check();
        compaction.check();
        assertFalse(compaction.lowered(), "two checks without writes");
        write("again");
        compaction.check(); // a write: the count starts again
        compaction.check();
        compaction.check();
        assertFalse(compaction.lowered(), "two checks without writes since the last one");
        compaction.check();

        assertTrue(compaction.lowered(), "three checks without writes");
        awaitNoL0Files();
    }

    @Test
    void idleStoreWithoutL0Files_leavesTheTrigger() throws Exception {
        IdleCompaction compaction = idleCompaction();
        write("in the memtable only");

        compaction.check();
        compaction.check();

        assertFalse(compaction.lowered());
        assertEquals(RocksStore.L0_COMPACTION_TRIGGER, trigger());
    }

    @Test
    void idleStoreIsLookedAtOncePerPause_andAgainAfterTheNextWrites() throws Exception {
        IdleCompaction compaction = idleCompaction();
        write("in the memtable only");
        compaction.check();
        compaction.check(); // idle, nothing worth doing
        store.flush(); // an L0 file without a write: the whole family, but not looked at in this pause

        compaction.check();
        assertFalse(compaction.lowered());
        write("again");
        compaction.check();
        compaction.check();

        assertTrue(compaction.lowered(), "the next pause finds the L0 file");
        awaitNoL0Files();
    }

    @Test
    void idleStoreWithMuchAboveTheBottomLevel_drainsEveryLevelAndTheMemtableIntoIt_untilWritesResume()
            throws Exception {
        // A small base level, so that a small store has a level above the bottom one, as a large store has.
        setOptions(MutableColumnFamilyOptions.builder().setMaxBytesForLevelBase(BASE_LEVEL_BYTES));
        writeIncompressible(5000);
        store.flush();
        store.db().compactRange(documents);
        // Without automatic compactions, so that the shape stays as made until the drain begins.
        setOptions(MutableColumnFamilyOptions.builder().setDisableAutoCompactions(true));
        writeIncompressible(1000);
        store.flush();
        writeIncompressible(1000);
        store.flush();
        List<String> l0 = level(0).files().stream().map(SstFileMetaData::fileName).toList();
        try (CompactionOptions options = new CompactionOptions()) {
            store.db().compactFiles(options, documents, l0, 5, 0, null);
        }
        writeL0File();
        write("in the memtable only");
        assertTrue(level(5).size() > 0 && level(0).size() > 0 && level(6).size() > 0, levels());
        IdleCompaction compaction = idleCompaction();

        compaction.check();

        assertTrue(compaction.draining(), levels());
        assertEquals(1, trigger());
        assertEquals(BASE_LEVEL_BYTES, store.db().getOptions(documents).maxBytesForLevelBase(),
                     "first the memtable and the L0 files go into the base level");
        setOptions(MutableColumnFamilyOptions.builder().setDisableAutoCompactions(false));
        awaitNoL0Files();
        assertEquals(0, store.db().getLongProperty(documents, "rocksdb.num-entries-active-mem-table"),
                     "the memtable was flushed");
        assertTrue(level(6).size() < store.db().getColumnFamilyMetaData(documents).size(),
                   "the base level is above the bottom one: " + levels());

        compaction.check();

        assertTrue(compaction.draining());
        assertTrue(store.db().getOptions(documents).maxBytesForLevelBase() > store.db()
                           .getColumnFamilyMetaData(documents).size(), "the whole family fits in the base level");
        for (int i = 0; i < 6000 && level(6).size() < store.db().getColumnFamilyMetaData(documents).size(); i++) {
            Thread.sleep(10); // RocksDB's background compactions: an event, not an amount of time; fails after a minute
        }
        assertEquals(store.db().getColumnFamilyMetaData(documents).size(), level(6).size(), levels());

        write("after");
        compaction.check();

        assertFalse(compaction.lowered());
        assertFalse(compaction.draining());
        assertEquals(RocksStore.L0_COMPACTION_TRIGGER, trigger());
        assertEquals(BASE_LEVEL_BYTES, store.db().getOptions(documents).maxBytesForLevelBase());
        for (int i = 0; i < written; i++) {
            assertTrue(store.db().get(documents, key(i)) != null, "document " + i + " is still there");
        }
    }

    @Test
    void idleStoreWithATenthAboveTheBottomLevel_compactsItsL0FilesWithoutDraining() throws Exception {
        writeIncompressible(5000);
        store.flush();
        store.db().compactRange(documents);
        writeIncompressible(700);
        store.flush();
        IdleCompaction compaction = idleCompaction();

        compaction.check();

        assertFalse(compaction.draining(), levels());
        assertTrue(compaction.lowered(), "a tenth of the family's bytes in L0 is still worth an L0 compaction");
        assertEquals(RocksStore.MAX_BYTES_FOR_LEVEL_BASE, store.db().getOptions(documents).maxBytesForLevelBase());
        awaitNoL0Files();
    }

    private IdleCompaction idleCompaction() throws RocksDBException {
        return idleCompaction(1);
    }

    private IdleCompaction idleCompaction(int checksToIdle) throws RocksDBException {
        // The options configured now are the ones it puts back.
        return new IdleCompaction(store.db(), List.of(documents), trigger(),
                                  store.db().getOptions(documents).maxBytesForLevelBase(), checksToIdle);
    }

    private void writeIncompressible(int documents) throws RocksDBException {
        for (int i = 0; i < documents; i++) {
            byte[] value = new byte[200];
            random.nextBytes(value);
            store.db().put(this.documents, key(written++), value);
        }
    }

    private void setOptions(MutableColumnFamilyOptions.MutableColumnFamilyOptionsBuilder options)
            throws RocksDBException {
        store.db().setOptions(documents, options.build());
    }

    private LevelMetaData level(int level) throws RocksDBException {
        return store.db().getColumnFamilyMetaData(documents).levels().get(level);
    }

    private String levels() throws RocksDBException {
        return store.db().getProperty(documents, "rocksdb.levelstats");
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

package io.sluice.content.embedded;

import io.sluice.content.BucketSpace;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.LRUCache;
import org.rocksdb.LogFile;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileManager;
import org.rocksdb.Status;
import org.rocksdb.WriteBufferManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * An open RocksDB database laid out for the embedded backend, and everything native it owns. Per bucket space there
 * is a column family of documents and one indexing tombstones by time; the default column family holds the layout's
 * format marker. Documents are compressed with LZ4, and with ZSTD in the bottommost level where most data ends up.
 */
final class RocksStore implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RocksStore.class);

    /** Marks a data directory written by this layout; another marker means another layout, which we refuse. */
    private static final byte[] FORMAT_KEY = "sluice.format".getBytes(StandardCharsets.UTF_8);
    private static final byte[] FORMAT = "sluice-embedded-1".getBytes(StandardCharsets.UTF_8);
    private static final long SMALL_WRITE_BUFFER = 4L << 20;
    /** L0 files that start a compaction of the documents' column families; see {@link #open}. */
    static final int L0_COMPACTION_TRIGGER = 12;
    /** RocksDB's default size of the base level, set here: {@link IdleCompaction} changes it and puts it back. */
    static final long MAX_BYTES_FOR_LEVEL_BASE = 256L << 20;

    /** The column families of one bucket space. */
    static final class Families {

        final ColumnFamilyHandle documents;
        final ColumnFamilyHandle tombstones;

        Families(ColumnFamilyHandle documents, ColumnFamilyHandle tombstones) {
            this.documents = documents;
            this.tombstones = tombstones;
        }

    }

    private final RocksDB db;
    private final Map<BucketSpace, Families> families;
    private final List<ColumnFamilyHandle> handles;
    private final List<AutoCloseable> resources; // closed in reverse order after the database
    private final DiskReserve reserve;
    private final boolean openedOnFullDisk;

    private RocksStore(RocksDB db, Map<BucketSpace, Families> families, List<ColumnFamilyHandle> handles,
                       List<AutoCloseable> resources, DiskReserve reserve, boolean openedOnFullDisk) {
        this.db = db;
        this.families = families;
        this.handles = handles;
        this.resources = resources;
        this.reserve = reserve;
        this.openedOnFullDisk = openedOnFullDisk;
    }

    /** The disk space held back for opening the store on a full disk; the caller writes it when missing. */
    DiskReserve reserve() {
        return reserve;
    }

    /** Whether the open found the disk full and released the reserve to open. */
    boolean openedOnFullDisk() {
        return openedOnFullDisk;
    }

    /**
     * Opens (creating if needed) the database in {@code options.dataDirectory()}, replaying its write-ahead log.
     *
     * @throws IllegalStateException naming the directory if it cannot be opened or holds another layout
     */
    static RocksStore open(EmbeddedOptions options) {
        RocksDB.loadLibrary();
        Path directory = options.dataDirectory();
        DataDirectory.create(directory, DataDirectory.FSYNC);
        DiskReserve reserve;
        try {
            reserve = DiskReserve.in(directory, options.writeBufferBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find the file system of " + directory, e);
        }
        try {
            return openDatabase(options, reserve, false);
        } catch (IllegalStateException e) {
            if ( ! (e.getCause() instanceof RocksDBException cause) || ! isNoSpace(cause))
                throw e;
            try {
                if ( ! reserve.release())
                    throw e;
            } catch (IOException deleting) {
                e.addSuppressed(deleting);
                throw e;
            }
            log.warn("The disk under {} is full; released the store's disk reserve ({} bytes) to open it: reads are "
                     + "served, writes are refused until space is freed", directory, reserve.bytes());
            return openDatabase(options, reserve, true);
        }
    }

    static boolean isNoSpace(RocksDBException e) {
        return e.getStatus() != null && e.getStatus().getSubCode() == Status.SubCode.NoSpace
               || e.getMessage() != null && e.getMessage().contains("No space left on device");
    }

    private static RocksStore openDatabase(EmbeddedOptions options, DiskReserve reserve, boolean onFullDisk) {
        Path directory = options.dataDirectory();
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            Cache cache = own(resources, new LRUCache(options.blockCacheBytes()));
            // The manager charges memtables to a cache of its own, which holds no blocks: it only does the
            // accounting, so memtables never evict data blocks and the two budgets stay what was configured.
            Cache memtableAccount = own(resources, new LRUCache(options.writeBufferBytes()));
            WriteBufferManager writeBuffers = own(resources, new WriteBufferManager(options.writeBufferBytes(),
                                                                                    memtableAccount));
            SstFileManager sstFiles = own(resources, new SstFileManager(Env.getDefault()));
            BloomFilter bloom = own(resources, new BloomFilter(10));
            BlockBasedTableConfig table = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setFilterPolicy(bloom)
                    // A get of a document outside the block cache decompresses the whole block holding it (ZSTD at
                    // the bottom level, where most of a large store lies). Fed 1,000,000 x 1 KiB documents
                    // (bench/store.sh, 2026-11-27), GETs of random ids: 26-33k/s with 16 KiB blocks, 42-46k/s with
                    // 8 KiB (the speed of a 100,000-document store), 43k/s with 4 KiB; stored bytes per document
                    // 446-463, 480-486 and 527; feed and visit speed unchanged.
                    .setBlockSize(8 * 1024)
                    .setCacheIndexAndFilterBlocks(true)
                    .setPinL0FilterAndIndexBlocksInCache(true);
            DBOptions dbOptions = own(resources, new DBOptions()
                    .setCreateIfMissing(true)
                    .setCreateMissingColumnFamilies(true)
                    .setWriteBufferManager(writeBuffers)
                    .setSstFileManager(sstFiles)
                    .setMaxBackgroundJobs(2)
                    .setBytesPerSync(1L << 20)
                    .setMaxTotalWalSize(4 * options.writeBufferBytes())
                    .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                    .setKeepLogFileNum(3)
                    // Replaying the write-ahead log at open goes into memtables, flushed later like any others, not
                    // into a new table file at once: on a full disk that file cannot be written, and the store could
                    // not start to serve reads. The replayed log files are kept until those memtables are flushed, so
                    // nothing acknowledged depends on the open's writes.
                    .setAvoidFlushDuringRecovery(true)
                    // RocksDB allocates 4 MiB for each new manifest at once; on a disk with little room (an open on a
                    // full disk, out of the disk reserve) that took what the open's other files needed.
                    .setManifestPreallocationSize(256L << 10)
                    // Point reads (gets, and the reads of conditions and updates) look a found row up in a row cache
                    // before searching the table file's index, filter and data block. It shares the block cache's
                    // budget, so it adds no memory. Server CPU per GET (h2c 4x256 of 1,000 stored documents after
                    // 30 s of puts, JFR-free, per-thread /proc): 37-41 us with it against 41-53 us without (two
                    // and six runs, alternating); perf put RocksDB's Get at ~29% of a GET's CPU without it.
                    .setRowCache(cache));
            ColumnFamilyOptions documentOptions = own(resources, new ColumnFamilyOptions()
                    .setTableFormatConfig(table)
                    .setCompressionType(CompressionType.LZ4_COMPRESSION)
                    .setBottommostCompressionType(CompressionType.ZSTD_COMPRESSION)
                    .setLevelCompactionDynamicLevelBytes(true)
                    .setMaxBytesForLevelBase(MAX_BYTES_FOR_LEVEL_BASE)
                    // Ids are spread over the whole key space, so every compaction of L0 files rewrites the whole
                    // level it goes into: the more L0 files it takes at once, the fewer times each stored byte is
                    // rewritten. With RocksDB's trigger of 4 a feed's cost depended on
                    // its own speed (a fast feed piled up more files while a compaction ran): 1,000,000 new 1 KiB
                    // documents (bench/store.sh, 2026-11-28, alternating) cost 31.8-45.4 us of server CPU per put,
                    // compaction 10.6-17.9 of it; with 12, 31.1-34.6 us and compaction 6.7-7.0 in every run, the
                    // same stored size, GETs and visits of the fed store 0.90-1.00x as fast. The slowdown and stop
                    // triggers keep RocksDB's default distances above it (16 and 32 files).
                    .setLevel0FileNumCompactionTrigger(L0_COMPACTION_TRIGGER)
                    .setLevel0SlowdownWritesTrigger(L0_COMPACTION_TRIGGER + 16)
                    .setLevel0StopWritesTrigger(L0_COMPACTION_TRIGGER + 32)
                    .setWriteBufferSize(Math.max(SMALL_WRITE_BUFFER, options.writeBufferBytes() / 2))
                    .setMaxWriteBufferNumber(3)
                    // A conditional write or a create reads the key first; for a new document that lookup misses, and
                    // a bloom filter over the memtable's whole keys answers it without searching the skip list.
                    .setMemtablePrefixBloomSizeRatio(0.05)
                    .setMemtableWholeKeyFiltering(true));
            ColumnFamilyOptions smallOptions = own(resources, new ColumnFamilyOptions()
                    .setTableFormatConfig(table)
                    .setCompressionType(CompressionType.LZ4_COMPRESSION)
                    .setWriteBufferSize(SMALL_WRITE_BUFFER)
                    .setMaxWriteBufferNumber(2));
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, smallOptions));
            for (BucketSpace space : BucketSpace.values()) {
                descriptors.add(new ColumnFamilyDescriptor(name("documents", space), documentOptions));
                descriptors.add(new ColumnFamilyDescriptor(name("tombstones", space), smallOptions));
            }
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            RocksDB db = RocksDB.open(dbOptions, directory.toString(), descriptors, handles);
            Map<BucketSpace, Families> families = new EnumMap<>(BucketSpace.class);
            for (BucketSpace space : BucketSpace.values()) {
                int index = 1 + 2 * space.ordinal();
                families.put(space, new Families(handles.get(index), handles.get(index + 1)));
            }
            RocksStore store = new RocksStore(db, families, handles, resources, reserve, onFullDisk);
            store.checkFormat(directory);
            return store;
        } catch (RocksDBException e) {
            closeAll(resources);
            throw new IllegalStateException("Cannot open the embedded store in " + directory + ": "
                                            + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeAll(resources);
            throw e;
        }
    }

    private static <T extends AutoCloseable> T own(List<AutoCloseable> resources, T resource) {
        resources.add(resource);
        return resource;
    }

    private static byte[] name(String kind, BucketSpace space) {
        return (kind + "." + space.wireName()).getBytes(StandardCharsets.UTF_8);
    }

    private void checkFormat(Path directory) throws RocksDBException {
        byte[] format = db.get(FORMAT_KEY);
        if (format == null) {
            db.put(FORMAT_KEY, FORMAT);
        } else if (!Arrays.equals(format, FORMAT)) {
            close();
            throw new IllegalStateException("Data directory " + directory + " holds data of format '"
                                            + new String(format, StandardCharsets.UTF_8) + "', not '"
                                            + new String(FORMAT, StandardCharsets.UTF_8) + "'");
        }
    }

    RocksDB db() {
        return db;
    }

    Families families(BucketSpace space) {
        return families.get(space);
    }

    /** RocksDB's integer property {@code name} summed over the column families of every space. */
    long sum(String name, boolean documents) throws RocksDBException {
        long sum = 0;
        for (Families family : families.values()) {
            sum += db.getLongProperty(documents ? family.documents : family.tombstones, name);
        }
        return sum;
    }

    /** Bytes of the write-ahead log files still kept. */
    long walBytes() throws RocksDBException {
        long sum = 0;
        for (LogFile file : db.getSortedWalFiles()) {
            sum += file.sizeFileBytes();
        }
        return sum;
    }

    /** Flushes every memtable to SST files, waiting for it, so the next open replays no log. */
    void flush() throws RocksDBException {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush, handles);
        }
    }

    /** Closes the database and its native resources; the caller makes sure nothing uses them any more. */
    @Override
    public void close() {
        for (ColumnFamilyHandle handle : handles) {
            handle.close();
        }
        try {
            db.closeE();
        } catch (RocksDBException e) {
            throw new IllegalStateException("Closing the embedded store failed: " + e.getMessage(), e);
        } finally {
            closeAll(resources);
        }
    }

    private static void closeAll(List<AutoCloseable> resources) {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                // Native option objects do not fail to close; nothing useful to do if one did.
            }
        }
        resources.clear();
    }

}

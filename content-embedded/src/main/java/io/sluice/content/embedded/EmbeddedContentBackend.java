package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.content.BucketSpace;
import io.sluice.content.OperationName;
import io.sluice.content.ContentBackend;
import io.sluice.content.ContentStatistics;
import io.sluice.document.FieldSet;
import io.sluice.content.OperationOptions;
import io.sluice.content.OperationSequencer;
import io.sluice.content.Outcome;
import io.sluice.content.Timestamps;
import io.sluice.content.Visit;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.FieldsJson;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;

/**
 * A {@link ContentBackend} that stores documents on local disk in RocksDB: one database per content cluster, in its
 * own data directory, with the bucket spaces in separate column families. Documents are keyed in visiting order
 * (bucket order key, then id), so every visit is a set of range scans.
 *
 * <p>A write is acknowledged once it is in the write-ahead log: with {@link Durability#SYNC} (the default; group
 * commit) once that log is fsynced, so it survives power loss; with {@link Durability#LOG} before, so it survives a
 * crash of the process only. Operations are sequenced per document id
 * ({@link io.sluice.content.OperationSequencer}), so a condition or create-if-nonexistent reads and writes atomically
 * per document while operations on different documents run in parallel; a get of a document with nothing in flight
 * takes no turn ({@link io.sluice.content.OperationSequencer#readIfIdle}). They run on the caller's thread when they
 * need no file read, else on a small thread pool; one {@link GroupWriter} thread writes what they decide, in batches.
 * A plain put or remove reads nothing: its timestamp comes from a clock that starts above every timestamp in the store
 * ({@link TimestampCeiling}), so it still exceeds the previous version's, even across restarts, and its
 * {@link Outcome#foundKnown()} is false. Puts and updates answer INSUFFICIENT_STORAGE while the
 * disk is nearly full ({@link EmbeddedOptions#minFreeDiskBytes()}) or RocksDB reports no space; removes, gets and
 * visits go on. If RocksDB fails to write or fsync its write-ahead log, the writes of that batch fail (ERROR: the log
 * may still hold them), and every later write answers UNAVAILABLE until the process restarts and recovers from the
 * log ({@link WritesStopped}, {@link #storageFailure()}); gets and visits go on. Tombstones are kept for the configured retention, then deleted by a periodic sweep, and compaction
 * reclaims their space.
 *
 * <p>{@link #close()} waits for running operations, flushes memtables and closes the database; opening after a crash
 * replays the write-ahead log and logs how long that took ({@link EmbeddedStats#recoveryTime()}).
 */
public final class EmbeddedContentBackend implements ContentBackend {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedContentBackend.class);
    private static final AtomicInteger THREAD_COUNTER = new AtomicInteger();
    private static final long CLOSE_WAIT_SECONDS = 60;
    /**
     * How often {@link IdleCompaction} looks for a pause in the writes, and how many checks without one make the store
     * idle: it compacts 10-11 s after the last write, and the second step of a drain follows its first within a second.
     */
    private static final long IDLE_CHECK_SECONDS = 1;
    private static final int IDLE_CHECKS = 10;
    /** How often the disk reserve is written again if it was released and there is room ({@link DiskReserve}). */
    private static final long RESERVE_CHECK_SECONDS = 5;
    /** Expired tombstones one sweep deletes at most; the next sweep takes the rest. */
    static final int MAX_SWEPT_PER_ROUND = 10_000;

    private final EmbeddedOptions options;
    private final RocksStore store;
    private final StoreOperations operations;
    private final StoreWriter writer;
    private final TimestampCeiling ceiling;
    private final ThreadPoolExecutor executor;
    private final ScheduledExecutorService sweeper;
    private final IdleCompaction idleCompaction;
    private final OperationSequencer sequencer;
    private final DiskSpaceGuard disk;
    private final DocumentJsonReader reader;
    private final Clock clock;
    private final long retentionMicros;
    private final Duration recoveryTime;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Whether the last write that reached RocksDB failed for lack of space; the next that succeeds clears it. */
    private volatile boolean outOfSpace = false;
    /** Whether the store was opened on a full disk and has not had room for its disk reserve since. */
    private volatile boolean openedFull;
    private volatile boolean reserveFailureLogged = false;
    /** Operations running on their callers' threads ({@link #runWithoutWaiting}); close() waits for them. */
    private final LongAdder callsWithoutWaiting = new LongAdder();
    /**
     * Operations that went to a store thread: a file read, a write stall, a closing store, or reads that would likely
     * have missed the cache.
     */
    private final LongAdder handedOff = new LongAdder();
    /** Whether operations that read try the caller's thread first. */
    private final CachedReadOdds cachedReadOdds = new CachedReadOdds();
    /** Recently read documents, which the writer keeps true. */
    private final DocumentCache cache;
    /** Statistics read the database under the read lock; closing it takes the write lock, so reads never see it gone. */
    private final ReadWriteLock storeLock = new ReentrantReadWriteLock();

    private enum Access { READ, WRITE, REMOVE }

    /** What a read on the calling thread answers when it needs a file read; never an operation's outcome. */
    private static final Outcome NEEDS_FILE_READ = Outcome.error("A read on the calling thread needed a file read");

    @FunctionalInterface
    private interface Operation {
        Step apply(RocksStore.Families families, StoreKey key, ReadOptions reads) throws RocksDBException;
    }

    private EmbeddedContentBackend(EmbeddedOptions options, RocksStore store, Duration recoveryTime) {
        this.options = options;
        this.store = store;
        this.recoveryTime = recoveryTime;
        this.clock = options.clock();
        this.reader = DocumentJsonReader.stored(options.documentTypes());
        this.ceiling = openCeiling(store);
        this.cache = DocumentCache.of(options.documentCacheBytes());
        this.operations = new StoreOperations(store.db(), store.families(BucketSpace.GLOBAL).documents, reader, clock,
                                              ceiling.floor(), cache);
        this.sequencer = new OperationSequencer("embedded", clock, options.maxPendingOperations(), closed::get,
                                                EmbeddedContentBackend::unexpected);
        this.retentionMicros = Timestamps.micros(options.tombstoneRetention());
        this.disk = new DiskSpaceGuard(options.dataDirectory(), options.minFreeDiskBytes(), System::nanoTime);
        this.executor = new ThreadPoolExecutor(options.threads(), options.threads(), 0, TimeUnit.MILLISECONDS,
                                               new ArrayBlockingQueue<>(options.maxPendingOperations() + 1024),
                                               daemonThreads("sluice-embedded-"));
        this.writer = new GroupWriter(store.db(), options.durability(), ceiling, cache, options.maxPendingOperations(),
                                      "sluice-embedded-writer-" + THREAD_COUNTER.incrementAndGet(), executor);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(daemonThreads("sluice-embedded-sweep-"));
        long interval = options.tombstoneSweepInterval().toMillis();
        sweeper.scheduleWithFixedDelay(this::sweepQuietly, interval, interval, TimeUnit.MILLISECONDS);
        this.idleCompaction = new IdleCompaction(store.db(), Stream.of(BucketSpace.values())
                                                                   .map(space -> store.families(space).documents)
                                                                   .toList(),
                                                 RocksStore.L0_COMPACTION_TRIGGER,
                                                 RocksStore.MAX_BYTES_FOR_LEVEL_BASE, IDLE_CHECKS);
        sweeper.scheduleWithFixedDelay(this::checkIdleQuietly, IDLE_CHECK_SECONDS, IDLE_CHECK_SECONDS,
                                       TimeUnit.SECONDS);
        this.openedFull = store.openedOnFullDisk();
        sweeper.scheduleWithFixedDelay(this::restoreReserveQuietly, RESERVE_CHECK_SECONDS, RESERVE_CHECK_SECONDS,
                                       TimeUnit.SECONDS);
    }

    /** Writes the disk reserve when it is missing (a new store, or one opened on a full disk) and there is room. */
    private void restoreReserveQuietly() {
        if (closed.get() || store.reserve().isHeld())
            return;
        try {
            if (store.reserve().restoreIfRoom() && openedFull) {
                openedFull = false;
                log.info("The disk under {} has room again: writes are taken, and its disk reserve is back in place",
                         options.dataDirectory());
            }
        } catch (IOException e) {
            if ( ! reserveFailureLogged) { // the disk filled up again meanwhile, most likely: tried again later
                reserveFailureLogged = true;
                log.warn("Writing the disk reserve of {} failed ({}); trying again every {} s",
                         options.dataDirectory(), e.getMessage(), RESERVE_CHECK_SECONDS);
            }
        } catch (RuntimeException e) {
            log.warn("Writing the disk reserve of {} failed", options.dataDirectory(), e);
        }
    }

    /**
     * {@inheritDoc} The embedded store says when writes are refused for lack of space: the disk is below
     * {@code min-free-disk}, a write found it full, or the store was opened on a full disk (its disk reserve released)
     * and has not had room for the reserve since. Reads and visits are served meanwhile, and writes are taken again,
     * without a restart, once space is freed. (A store whose log failed reports {@link #storageFailure()} instead.)
     */
    @Override
    public Optional<String> condition() {
        if (closed.get())
            return Optional.empty();
        if ( ! disk.hasRoom())
            return Optional.of("writes are refused (507): " + disk.describe());
        if (outOfSpace || openedFull)
            return Optional.of("writes are refused (507): the disk under " + options.dataDirectory()
                               + " is full; they are taken again once space is freed");
        return Optional.empty();
    }

    /**
     * Opens the store in {@code options.dataDirectory()}, creating it if missing and recovering from the write-ahead
     * log after a crash. Blocks while it recovers.
     *
     * @throws IllegalStateException naming the directory if it cannot be opened (in use by another process, written
     *                               by an incompatible version, or corrupt)
     * @throws UncheckedIOException if the directory cannot be created
     */
    public static EmbeddedContentBackend open(EmbeddedOptions options) {
        Objects.requireNonNull(options, "options");
        long logBytes = logBytes(options.dataDirectory());
        long start = System.nanoTime();
        RocksStore store = RocksStore.open(options);
        Duration recovery = Duration.ofNanos(System.nanoTime() - start);
        log.info("Opened {} in {} ms, replaying {} bytes of write-ahead log", options, recovery.toMillis(), logBytes);
        try {
            return new EmbeddedContentBackend(options, store, recovery);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    private static TimestampCeiling openCeiling(RocksStore store) {
        try {
            return TimestampCeiling.open(store);
        } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot read the newest timestamp of the embedded store: " + e.getMessage(),
                                            e);
        }
    }

    private static long logBytes(Path directory) {
        if (!Files.isDirectory(directory)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log"))
                        .mapToLong(file -> file.toFile().length())
                        .sum();
        } catch (IOException e) {
            return 0;
        }
    }

    private static ThreadFactory daemonThreads(String prefix) {
        return task -> {
            Thread thread = new Thread(task, prefix + THREAD_COUNTER.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public CompletableFuture<Outcome> put(Document document, OperationOptions options) {
        return put(document, null, options);
    }

    /** {@inheritDoc} Stores {@code fields} as they are, when given, rather than writing the document's JSON again. */
    @Override
    public CompletableFuture<Outcome> put(Document document, FieldsJson fields, OperationOptions options) {
        Objects.requireNonNull(document, "document");
        return submit(document.id(), new OperationName("put", document.id()), options, Access.WRITE,
                      !StoreOperations.writesWithoutRead(options),
                      (families, key, reads) -> operations.put(families, key, document, fields, options, reads));
    }

    @Override
    public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions options) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(options, "options");
        OperationName what = new OperationName("get", id);
        Operation operation = (families, key, reads) -> operations.get(families, key, id, fields, options, reads);
        SequenceKey sequenceKey = new SequenceKey(options.bucketSpace(), id);
        boolean tryHere = !closed.get() && cachedReadOdds.worthTrying();
        if (tryHere) {
            // With nothing in flight on the document, the read needs no turn in the sequencer: it is answered here,
            // after every earlier operation on it, unless it needs a file read.
            RocksStore.Families families = store.families(options.bucketSpace());
            Outcome now = sequencer.readIfIdle(sequenceKey, what, options.deadline(),
                                               () -> readWithoutWaiting(id, what, options, families, operation));
            if (now != null && now != NEEDS_FILE_READ) {
                return CompletableFuture.completedFuture(now);
            }
            // In flight on the document: tried again in its turn; needing a file read: straight to a store thread.
            tryHere = now == null;
        }
        return submit(sequenceKey, id, what, options, Access.READ, true, tryHere, operation);
    }

    @Override
    public CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions options) {
        Objects.requireNonNull(update, "update");
        return submit(update.id(), new OperationName("update", update.id()), options, Access.WRITE, true,
                      (families, key, reads) -> operations.update(families, key, update, options, reads));
    }

    @Override
    public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options) {
        return submit(id, new OperationName("remove", id), options, Access.REMOVE,
                      !StoreOperations.writesWithoutRead(options),
                      (families, key, reads) -> operations.remove(families, key, id, options, reads));
    }

    /** {@inheritDoc} Batches are read on the backend's threads; one call scans a bounded number of entries. */
    @Override
    public Visit visit(VisitSpec spec) {
        VisitPlan plan = VisitPlan.of(spec, options.distributionBits());
        return new EmbeddedVisit(store.db(), store.families(spec.bucketSpace()).documents, plan, spec, clock,
                                 executor, reader, options.documentTypes(), this::isExpired,
                                 operations.parents(operations.reads(false)), closed::get);
    }

    /** Parents are global documents: conditions and visits read imported fields from the global bucket space. */
    @Override
    public boolean followsReferences() {
        return true;
    }

    /**
     * {@inheritDoc} The message of {@link WritesStopped}: set when RocksDB failed to write or fsync the write-ahead
     * log; from then on every put, update and remove answers UNAVAILABLE until the process restarts, while gets and
     * visits go on.
     */
    @Override
    public Optional<String> storageFailure() {
        return writer.stopped().map(Throwable::getMessage);
    }

    /**
     * The store's size and state now. Reads RocksDB properties and lists the log files, so call it for metrics, not
     * per request.
     *
     * @throws IllegalStateException if the backend is closed or RocksDB fails to answer
     */
    public EmbeddedStats stats() {
        Lock lock = storeLock.readLock();
        lock.lock();
        try {
            return readStats();
        } catch (RocksDBException e) {
            throw new IllegalStateException("Reading store statistics failed: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /** {@inheritDoc} Reports every figure of {@link #stats()}; none while the store is closing. */
    @Override
    public Map<String, Number> statistics() {
        Lock lock = storeLock.readLock();
        if (!lock.tryLock()) {
            return Map.of(); // closing: the metrics request must not wait for the final flush
        }
        EmbeddedStats stats;
        try {
            stats = readStats();
        } catch (IllegalStateException | RocksDBException e) {
            log.debug("No statistics from the embedded store at {}", options.dataDirectory(), e);
            return Map.of();
        } finally {
            lock.unlock();
        }
        Map<String, Number> figures = new LinkedHashMap<>();
        figures.put(ContentStatistics.DOCUMENTS, stats.documents());
        figures.put(ContentStatistics.TOMBSTONES, stats.tombstones());
        figures.put(ContentStatistics.STORED_BYTES, stats.storedBytes());
        figures.put(ContentStatistics.WAL_BYTES, stats.walBytes());
        figures.put(ContentStatistics.WAL_WRITES, writer.logWrites());
        figures.put(ContentStatistics.MEMTABLE_BYTES, stats.memtableBytes());
        figures.put(ContentStatistics.PENDING_OPERATIONS, stats.pendingOperations());
        figures.put(ContentStatistics.RECOVERY_SECONDS, stats.recoveryTime().toNanos() / 1e9);
        figures.put(ContentStatistics.WRITES_STOPPED, writer.stopped().isPresent() ? 1 : 0);
        if (cache.enabled()) {
            figures.put(ContentStatistics.DOCUMENT_CACHE_HITS, cache.hits());
            figures.put(ContentStatistics.DOCUMENT_CACHE_MISSES, cache.misses());
            figures.put(ContentStatistics.DOCUMENT_CACHE_BYTES, cache.bytes());
        }
        return figures;
    }

    /** Reads the figures; the caller holds the read lock, so the database stays open meanwhile. */
    private EmbeddedStats readStats() throws RocksDBException {
        if (closed.get()) {
            throw new IllegalStateException(sequencer.closedOutcome().message());
        }
        long keys = store.sum("rocksdb.estimate-num-keys", true);
        long tombstones = store.sum("rocksdb.estimate-num-keys", false);
        return new EmbeddedStats(Math.max(0, keys - tombstones), tombstones,
                                 store.sum("rocksdb.total-sst-files-size", true)
                                 + store.sum("rocksdb.total-sst-files-size", false),
                                 store.walBytes(),
                                 store.sum("rocksdb.cur-size-all-mem-tables", true)
                                 + store.sum("rocksdb.cur-size-all-mem-tables", false),
                                 sequencer.pending(), recoveryTime);
    }

    private CompletableFuture<Outcome> submit(DocumentId id, OperationName what, OperationOptions options, Access access,
                                              boolean reads, Operation operation) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(options, "options");
        return submit(new SequenceKey(options.bucketSpace(), id), id, what, options, access, reads, true, operation);
    }

    /** In {@code id}'s turn; {@code tryHere} false sends it straight to a store thread (the caller's try missed). */
    private CompletableFuture<Outcome> submit(SequenceKey sequenceKey, DocumentId id, OperationName what,
                                              OperationOptions options, Access access, boolean reads, boolean tryHere,
                                              Operation operation) {
        RocksStore.Families families = store.families(options.bucketSpace());
        StoreKey key = new StoreKey(id);
        return sequencer.run(sequenceKey, what, options.deadline(),
                             () -> start(id, what, options, access, reads, tryHere, families, key, operation));
    }

    /**
     * The read on the calling thread, from the cache, the memtables and the block cache only, within
     * {@link OperationSequencer#readIfIdle}: its outcome, or {@link #NEEDS_FILE_READ} (which a store thread does).
     */
    private Outcome readWithoutWaiting(DocumentId id, OperationName what, OperationOptions options,
                                       RocksStore.Families families, Operation operation) {
        callsWithoutWaiting.increment(); // before checking closed again: close() waits for the count to drop
        try {
            if (closed.get()) {
                return sequencer.closedOutcome();
            }
            CompletableFuture<Outcome> done = runWithoutWaiting(id, what, options, Access.READ, families,
                                                                new StoreKey(id), operation);
            cachedReadOdds.tried(done != null);
            return done == null ? NEEDS_FILE_READ : done.join(); // a read writes nothing: done, join never waits
        } finally {
            callsWithoutWaiting.decrement();
        }
    }

    /**
     * Carries {@code operation} out, then has the writer write what it decided; completes with its outcome. It runs on
     * the calling thread when what it reads is in the memtables or the block cache, or it reads nothing (a plain put
     * or remove, see {@link StoreOperations#writesWithoutRead}): then it takes microseconds and never waits, cheaper
     * than handing it to a store thread and back. Otherwise it runs again on a store thread, which may wait for a file
     * read. An operation that {@code reads} goes straight to a store thread while most of the recent ones that tried
     * the caller's thread missed ({@link CachedReadOdds}). Only the {@link GroupWriter}'s thread writes, so no caller
     * ever waits for a write (or a write stall).
     */
    private CompletableFuture<Outcome> start(DocumentId id, OperationName what, OperationOptions options, Access access,
                                             boolean reads, boolean tryHere, RocksStore.Families families,
                                             StoreKey key, Operation operation) {
        if (tryHere && !closed.get() && (!reads || cachedReadOdds.worthTrying())) {
            callsWithoutWaiting.increment(); // before checking closed again: close() waits for the count to drop
            try {
                if (!closed.get()) {
                    CompletableFuture<Outcome> done = runWithoutWaiting(id, what, options, access, families, key,
                                                                        operation);
                    if (reads) {
                        cachedReadOdds.tried(done != null);
                    }
                    if (done != null) {
                        return done;
                    }
                }
            } finally {
                callsWithoutWaiting.decrement();
            }
        }
        handedOff.increment();
        CompletableFuture<Outcome> result = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                Outcome early = refusal(id, what, options, access);
                if (early != null) {
                    result.complete(early);
                    return;
                }
                try {
                    Step step = operation.apply(families, key, operations.reads(false));
                    write(id, step).whenComplete((outcome, failure) -> {
                        if (failure == null) {
                            result.complete(outcome);
                        } else {
                            result.completeExceptionally(failure);
                        }
                    });
                } catch (RocksDBException e) {
                    result.complete(storeFailure(id, e));
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.complete(closed.get() ? sequencer.closedOutcome()
                                         : Outcome.overload("Rejecting " + what + ": the store's work queue is full"));
        }
        return result;
    }

    /**
     * The operation on the calling thread, reading only what the memtables and the block cache hold. Null if it would
     * have needed a file read: then a store thread does it again.
     */
    private CompletableFuture<Outcome> runWithoutWaiting(DocumentId id, OperationName what, OperationOptions options,
                                                         Access access, RocksStore.Families families, StoreKey key,
                                                         Operation operation) {
        // The sequencer checked the deadline (and closed) right before, on this thread; only the disk is left to check.
        Outcome early = writeRefusal(id, access);
        if (early != null) {
            return CompletableFuture.completedFuture(early);
        }
        try {
            return write(id, operation.apply(families, key, operations.reads(true)));
        } catch (RocksDBException e) {
            return StoreOperations.isIncomplete(e) ? null : CompletableFuture.completedFuture(storeFailure(id, e));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Has the writer write what {@code step} decided; completes with its outcome once written (at once if nothing). */
    private CompletableFuture<Outcome> write(DocumentId id, Step step) {
        if (step.mutations.isEmpty()) {
            return CompletableFuture.completedFuture(step.outcome);
        }
        return writer.write(step.mutations, step.timestamp)
                     .handle((ignored, failure) -> {
                         if (failure == null) {
                             outOfSpace = false;
                             return step.outcome;
                         }
                         return writeFailure(id, failure);
                     });
    }

    /** The open store, for tests. */
    RocksStore store() {
        return store;
    }

    /** How many operations so far were handed to a store thread instead of running on the caller's. */
    long operationsHandedOff() {
        return handedOff.sum();
    }

    /** Why the operation must not run now (the executor's queue may have held it), or null if it may. */
    private Outcome refusal(DocumentId id, OperationName what, OperationOptions options, Access access) {
        Outcome refusal = sequencer.refusal(what, options.deadline());
        return refusal != null ? refusal : writeRefusal(id, access);
    }

    /**
     * INSUFFICIENT_STORAGE for a put or update while the disk is short of room, and for any write while a store opened
     * on a full disk has not had room for its disk reserve since; UNAVAILABLE for any write once the writer stopped
     * after its log failed; null otherwise.
     */
    private Outcome writeRefusal(DocumentId id, Access access) {
        if (access == Access.WRITE && !disk.hasRoom())
            return Outcome.insufficientStorage("Cannot write document '" + id + "': " + disk.describe());
        if (access != Access.READ && openedFull && disk.usableBytes() < 2 * store.reserve().bytes())
            // Opened on a full disk: a write now would find no space for the log, and a failed log write stops all
            // writes until restart (WritesStopped). Refused before it reaches RocksDB, it stops nothing.
            return Outcome.insufficientStorage("Cannot write document '" + id + "': the disk under "
                                               + options.dataDirectory() + " is full; writes are taken again once "
                                               + "space is freed");
        if (access != Access.READ) {
            Optional<WritesStopped> stopped = writer.stopped();
            if (stopped.isPresent())
                return stopped(id, stopped.get());
        }
        return null;
    }

    private static Outcome stopped(DocumentId id, WritesStopped stopped) {
        return Outcome.unavailable("Cannot write document '" + id + "': " + stopped.getMessage());
    }

    private Outcome writeFailure(DocumentId id, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                          ? failure.getCause() : failure;
        if (cause instanceof WritesStopped) {
            return stopped(id, (WritesStopped) cause);
        }
        if (cause instanceof StalledWrites.FullDiskStall) {
            return storeFailure(id, (RocksDBException) cause);
        }
        if (cause instanceof RocksDBException) {
            return logFailure(id, (RocksDBException) cause);
        }
        if (cause instanceof RejectedExecutionException) {
            return Outcome.overload("Rejecting write of '" + id + "': " + cause.getMessage());
        }
        if (cause instanceof IllegalStateException) {
            return sequencer.closedOutcome();
        }
        return unexpected(new OperationName("write", id), cause);
    }

    /**
     * The outcome of a write whose batch RocksDB failed to write or fsync to its log (which stopped the writer). It
     * is not acknowledged, yet the log on disk may hold it, so it may reappear after a restart: an ERROR, which
     * promises nothing either way, not UNAVAILABLE, which promises it was not applied. INSUFFICIENT_STORAGE if the
     * failure was lack of space and the disk is really (nearly) full, as the client must free space.
     */
    private Outcome logFailure(DocumentId id, RocksDBException e) {
        Status status = e.getStatus();
        if (status != null && status.getSubCode() == Status.SubCode.NoSpace && isNearlyFull()) {
            return Outcome.insufficientStorage("Cannot write document '" + id + "': the disk is full, and "
                                               + WritesStopped.describe(e));
        }
        return Outcome.error("Writing document '" + id + "' failed, and it may or may not be in the store after a "
                             + "restart: " + WritesStopped.describe(e));
    }

    /** Whether the data directory's file system is below min-free-disk or nearly out of space. */
    private boolean isNearlyFull() {
        return !disk.hasRoom() || options.dataDirectory().toFile().getUsableSpace() < StalledWrites.NEARLY_FULL_BYTES;
    }

    private Outcome storeFailure(DocumentId id, RocksDBException e) {
        Status status = e.getStatus();
        if (status != null && status.getSubCode() == Status.SubCode.NoSpace) {
            outOfSpace = true;
            return Outcome.insufficientStorage("Cannot write document '" + id + "': the disk is full ("
                                               + e.getMessage() + ")");
        }
        log.warn("Store operation on '{}' failed", id, e);
        return Outcome.error("Store operation on '" + id + "' failed: " + e.getMessage());
    }

    private static Outcome unexpected(OperationName what, Throwable failure) {
        log.error("Unexpected failure of {}", what, failure);
        return Outcome.error("Unexpected failure of " + what + ": " + failure);
    }

    /** Whether a tombstone written at {@code timestamp} has outlived the retention period. */
    private boolean isExpired(long timestamp) {
        return Timestamps.nowMicros(clock) - timestamp > retentionMicros;
    }

    /**
     * Deletes tombstones older than the retention period (up to {@link #MAX_SWEPT_PER_ROUND}), each atomically with
     * the operations on its document. Completes with how many tombstones were deleted. Runs periodically on its own;
     * tests call it directly.
     */
    CompletableFuture<Integer> sweepTombstones() {
        return new TombstoneSweep(store, operations, sequencer, executor, writer, Timestamps.nowMicros(clock)
                                  - retentionMicros, MAX_SWEPT_PER_ROUND).run();
    }

    private void checkIdleQuietly() {
        if (closed.get() || writer.stopped().isPresent()) { // a failed store is left as it is for the restart
            return;
        }
        try {
            boolean lowered = idleCompaction.lowered();
            idleCompaction.check();
            if (idleCompaction.lowered() != lowered) {
                log.debug(lowered ? "Writes resumed: compactions wait for {} L0 files again"
                                  : idleCompaction.draining()
                                    ? "No writes for {} s: compacting the documents into one level"
                                    : "No writes for {} s: compacting the L0 files left behind",
                          lowered ? RocksStore.L0_COMPACTION_TRIGGER : IDLE_CHECK_SECONDS * IDLE_CHECKS);
            }
        } catch (RocksDBException | RuntimeException e) {
            log.warn("Checking whether the store is idle, to compact what a feed left behind, failed", e);
        }
    }

    private void sweepQuietly() {
        if (closed.get() || writer.stopped().isPresent()) {
            return;
        }
        try {
            int swept = sweepTombstones().get(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
            if (swept > 0) {
                log.debug("Deleted {} expired tombstones", swept);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("Sweeping expired tombstones failed", e);
        }
    }

    /**
     * Stops accepting operations, lets running ones finish (queued ones complete with ERROR), flushes memtables so
     * the next open replays no log, and closes the database. Blocks until done; idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        sweeper.shutdownNow();
        executor.shutdown();
        boolean interrupted = false;
        try {
            if (!sweeper.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)
                || !executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                log.warn("Store threads did not stop within {} s; closing anyway", CLOSE_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        interrupted |= !awaitCallsWithoutWaiting();
        if (!sweeper.isTerminated() || !executor.isTerminated() || callsWithoutWaiting.sum() != 0) {
            // Closing the database under a running native call would crash the process; leak it instead.
            log.error("Store threads are still running; leaving the store at {} open", options.dataDirectory());
        } else {
            Lock lock = storeLock.writeLock();
            lock.lock();
            try {
                closeStore();
            } finally {
                lock.unlock();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits for the operations running on callers' threads to leave the store: each takes microseconds, and none
     * starts once {@link #closed} is set. False if interrupted.
     */
    private boolean awaitCallsWithoutWaiting() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
        while (callsWithoutWaiting.sum() != 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                return false;
            }
        }
        return true;
    }

    private void flushOnClose() {
        try {
            store.flush();
        } catch (RocksDBException e) {
            // Expected on a full disk: one line that says what happened and why nothing is lost, no stack trace.
            log.warn("Flushing memtables on close failed ({}); the next open replays the write-ahead log", e.getMessage());
        }
    }

    /** Flushes and closes the database; the caller holds the write lock and no store thread runs any more. */
    private void closeStore() {
        writer.close();
        if (writer.stopped().isPresent()) {
            // Nothing more goes to a store whose log failed: the next open recovers from the log on disk.
            log.warn("Closing the embedded store at {} without flushing, as its writes were stopped: the next open "
                     + "replays the write-ahead log", options.dataDirectory());
            operations.close();
            closeQuietly();
            return;
        }
        try {
            ceiling.tighten();
        } catch (RocksDBException e) {
            log.warn("Writing the newest timestamp on close failed ({}); the next open starts a little ahead of it",
                     e.getMessage());
        }
        long usable = options.dataDirectory().toFile().getUsableSpace();
        if (outOfSpace || usable < StalledWrites.NEARLY_FULL_BYTES) {
            // A flush that fails for lack of space waits for RocksDB to recover from it, which needs space freed:
            // the stop would hang. The write-ahead log holds what the memtables do, and the next open replays it.
            log.warn("Not flushing memtables on close: the disk under {} has {} bytes free; the next open replays the "
                     + "write-ahead log", options.dataDirectory(), usable);
        } else {
            flushOnClose();
        }
        operations.close();
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            store.close();
            log.info("Closed embedded store at {}", options.dataDirectory());
        } catch (IllegalStateException e) {
            // E.g. after running out of disk: what was acknowledged is in the log and replays on the next open.
            log.warn("Closing the embedded store at {} failed ({}); the next open replays the write-ahead log",
                     options.dataDirectory(), e.getMessage());
        }
    }

}

package io.sluice.content.embedded;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupWriterTest {

    @TempDir(factory = MemoryBackedTempDir.class)
    Path directory;

    private ScratchRocks scratch;
    private RocksDB db;
    private GroupWriter writer;
    private final DocumentCache cache = DocumentCache.of(1 << 20);

    @BeforeEach
    void open() throws RocksDBException {
        scratch = ScratchRocks.open(directory);
        db = scratch.db();
        writer = new GroupWriter(db, Durability.SYNC, new TimestampCeiling(db, 0), cache, 10_000, "test-writer",
                                 Runnable::run);
    }

    @AfterEach
    void close() {
        writer.close();
        scratch.close();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private List<CompletableFuture<Void>> writeMany(int count) {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            writes.add(writer.write(List.of(Mutation.put(db.getDefaultColumnFamily(), bytes("k" + i),
                                                         bytes("v" + i))), 1000 + i));
        }
        return writes;
    }

    @Test
    void write_manyAtOnce_completesEachOnceItIsStored() throws RocksDBException {
        List<CompletableFuture<Void>> writes = writeMany(500);

        CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).join();

        for (int i = 0; i < 500; i++) {
            assertArrayEquals(bytes("v" + i), db.get(bytes("k" + i)));
        }
    }

    @Test
    void logWrites_countsGroups_oneForEachWriteWaitedFor() {
        for (int i = 0; i < 3; i++) {
            writeMany(1).get(0).join();
        }

        assertEquals(3, writer.logWrites());
    }

    @Test
    void write_ofTheSameKeysManyTimesAtOnce_leavesEachKeyAsItsLastWrite() throws RocksDBException {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            byte[] key = bytes("k" + (i % 7));
            Mutation mutation = i % 3 == 0 ? Mutation.delete(db.getDefaultColumnFamily(), key)
                                           : Mutation.put(db.getDefaultColumnFamily(), key, bytes("v" + i));
            writes.add(writer.write(List.of(mutation), 1000 + i));
        }
        CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).join();

        for (int k = 0; k < 7; k++) {
            int last = 1000 - 7 + (k - (1000 - 7) % 7 + 7) % 7; // the last i with i % 7 == k
            assertArrayEquals(last % 3 == 0 ? null : bytes("v" + last), db.get(bytes("k" + k)), "k" + k);
        }
    }

    @Test
    void write_aboveTheCeiling_persistsANewOneAheadOfItInTheSameBatch() throws RocksDBException {
        writeMany(10).forEach(CompletableFuture::join);

        long stored = TimestampCeiling.stored(db);
        assertTrue(stored >= 1009 && stored <= 1009 + TimestampCeiling.RESERVE_MICROS, "ceiling " + stored);
    }

    @Test
    void write_belowThePersistedCeiling_writesNoNewOne() throws RocksDBException {
        writeMany(1).get(0).join();
        long first = TimestampCeiling.stored(db);
        db.delete(TimestampCeiling.KEY);

        writer.write(List.of(Mutation.put(db.getDefaultColumnFamily(), bytes("x"), bytes("y"))), first - 1).join();

        assertNull(TimestampCeiling.stored(db));
    }

    @Test
    void close_withQueuedWrites_writesThemFirst() throws RocksDBException {
        List<CompletableFuture<Void>> writes = writeMany(200);

        writer.close();

        assertTrue(writes.stream().allMatch(write -> write.isDone() && !write.isCompletedExceptionally()));
        assertArrayEquals(bytes("v199"), db.get(bytes("k199")));
    }

    @Test
    void write_afterClose_failsWithIllegalState() {
        writer.close();

        CompletionException e = assertThrows(CompletionException.class, () -> writeMany(1).get(0).join());

        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @Test
    void write_ofCachedKeys_replacesOrDropsTheirEntries_beforeItCompletes() {
        byte[] key = bytes("k");
        byte[] other = bytes("other");
        cache.offer(db.getDefaultColumnFamily(), key, cache.stamp(key), bytes("old"));
        cache.offer(db.getDefaultColumnFamily(), other, cache.stamp(other), bytes("kept"));
        List<byte[]> seenOnCompletion = new ArrayList<>();

        byte[] storeKey = StoreKeys.of(42, key); // the cache knows a document by its id, the writer by its store key
        writer.write(List.of(Mutation.put(db.getDefaultColumnFamily(), storeKey, bytes("new"))), 1000)
              .thenRun(() -> seenOnCompletion.add(cache.get(db.getDefaultColumnFamily(), key)))
              .join();
        writer.write(List.of(Mutation.delete(db.getDefaultColumnFamily(), storeKey)), 1001)
              .thenRun(() -> seenOnCompletion.add(cache.get(db.getDefaultColumnFamily(), key)))
              .join();

        assertArrayEquals(bytes("new"), seenOnCompletion.get(0));
        assertNull(seenOnCompletion.get(1));
        assertArrayEquals(bytes("kept"), cache.get(db.getDefaultColumnFamily(), other));
    }

    /**
     * A log that writes nothing: it holds each of its first {@code held} batches until the test releases it (so the
     * test decides what queues meanwhile), fails the one numbered {@code failing} with {@code failure}, and counts.
     */
    private static final class ScriptedLog implements GroupWriter.Sink {

        final Semaphore entered = new Semaphore(0);
        final Semaphore released = new Semaphore(0);
        final AtomicInteger batches = new AtomicInteger();
        private final int held;
        private final int failing;
        private final RocksDBException failure;

        ScriptedLog(int held, int failing, RocksDBException failure) {
            this.held = held;
            this.failing = failing;
            this.failure = failure;
        }

        @Override
        public void write(WriteBatch batch) throws RocksDBException {
            int number = batches.incrementAndGet();
            if (number <= held) {
                entered.release();
                try {
                    assertTrue(released.tryAcquire(1, TimeUnit.MINUTES), "never released"); // a bound, not a timing
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (number == failing) {
                throw failure;
            }
        }

        /** Waits until the writer hands the log its next held batch. */
        void awaitBatch() throws InterruptedException {
            assertTrue(entered.tryAcquire(1, TimeUnit.MINUTES), "the writer wrote no batch"); // a bound, not a timing
        }

    }

    private GroupWriter writerOver(GroupWriter.Sink log) {
        writer.close();
        return writer = new GroupWriter(db, Durability.SYNC, log, new TimestampCeiling(db, 0), cache, 10_000,
                                        "test-writer", Runnable::run);
    }

    private static Throwable failureOf(CompletableFuture<Void> write) {
        return assertThrows(CompletionException.class, write::join).getCause();
    }

    @Test
    void write_whoseLogSyncFails_failsEveryWriteOfItsBatch_andEveryLaterOneWithoutWritingIt()
            throws InterruptedException {
        RocksDBException eio = new RocksDBException("While fdatasync: 000004.log: Input/output error",
                                                    new Status(Status.Code.IOError, Status.SubCode.None, null));
        ScriptedLog log = new ScriptedLog(2, 2, eio);
        GroupWriter writer = writerOver(log);
        CompletableFuture<Void> before = writeMany(1).get(0);
        log.awaitBatch();
        List<CompletableFuture<Void>> failingBatch = writeMany(50); // queue while the first batch is being written
        log.released.release();
        log.awaitBatch();
        List<CompletableFuture<Void>> queuedMeanwhile = writeMany(30); // queue while the failing one is being written
        log.released.release();

        before.join();
        for (CompletableFuture<Void> write : failingBatch)
            assertEquals(eio, failureOf(write));
        for (CompletableFuture<Void> queued : queuedMeanwhile)
            assertInstanceOf(WritesStopped.class, failureOf(queued));
        Throwable later = failureOf(writeMany(1).get(0));
        assertInstanceOf(WritesStopped.class, later);
        assertEquals(eio, ((WritesStopped) later).failure());
        assertEquals(2, log.batches.get(), "batches given to the log, none after its sync failed");
        assertTrue(writer.stopped().orElseThrow().getMessage().contains("Input/output error"),
                   writer.stopped().orElseThrow().getMessage());
    }

    @Test
    void write_refusedForAFullDisk_failsAlone_andLaterWritesGoOn() {
        ScriptedLog log = new ScriptedLog(0, 1, new StalledWrites.FullDiskStall(1000));
        GroupWriter writer = writerOver(log);

        assertInstanceOf(StalledWrites.FullDiskStall.class, failureOf(writeMany(1).get(0)));
        writeMany(1).get(0).join();

        assertEquals(2, log.batches.get());
        assertEquals(Optional.empty(), writer.stopped());
    }

}

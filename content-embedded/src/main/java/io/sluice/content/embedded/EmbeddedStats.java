package io.sluice.content.embedded;

import java.time.Duration;

/**
 * A snapshot of the embedded store's size, for metrics. Counts are RocksDB's estimates (exact after a compaction,
 * approximate while overwrites and deletes sit in memtables and upper levels).
 *
 * @param documents estimated live documents, all bucket spaces
 * @param tombstones estimated tombstones kept for removed documents
 * @param storedBytes bytes of SST files on disk: the stored, compressed documents
 * @param walBytes bytes of write-ahead log files on disk
 * @param memtableBytes bytes held in memtables, not yet flushed
 * @param pendingOperations operations issued and not yet completed
 * @param recoveryTime how long opening the store (replaying the write-ahead log) took
 */
public record EmbeddedStats(long documents, long tombstones, long storedBytes, long walBytes, long memtableBytes,
                            int pendingOperations, Duration recoveryTime) {
}

/**
 * The embedded content backend: documents on local disk in RocksDB, the default engine of a content cluster.
 *
 * <p>Layout: one RocksDB database per content cluster. Per bucket space a column family {@code documents.<space>}
 * maps {@code orderKey (8 bytes, big-endian) + UTF-8 id} to {@code kind + timestamp + JSON fields}, so visiting
 * order is key order and every bucket, superbucket and slice is a range; {@code tombstones.<space>} indexes
 * tombstones by {@code timestamp + key}, so expired ones are a prefix. Blocks are LZ4-compressed, ZSTD at the
 * bottommost level; the block cache and the memtables share one memory budget.
 *
 * <p>Concurrency: per-document sequencing ({@link io.sluice.content.OperationSequencer}) makes each read-modify-write atomic for its document
 * without a global lock; RocksDB calls run on a small pool; with {@link
 * io.sluice.content.embedded.Durability#SYNC} one committer thread fsyncs many writes at once.
 *
 * <p>Entry point: {@link io.sluice.content.embedded.EmbeddedContentBackend#open}.
 */
package io.sluice.content.embedded;

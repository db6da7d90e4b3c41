package io.sluice.content.embedded;

import io.sluice.content.DocumentKey;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Byte keys of the store. A document's key is the 8 big-endian bytes of its bucket's order key followed by the UTF-8
 * bytes of its id, so RocksDB's bytewise order is {@linkplain DocumentKey visiting order}: a bucket, a superbucket
 * and a slice's superbuckets are contiguous key ranges, and a bucket start (empty id) is its 8-byte prefix.
 *
 * <p>The tombstone index keys a tombstone by its timestamp first (8 big-endian bytes; timestamps are never
 * negative), then its document key, so expired tombstones are a prefix of that index.
 */
final class StoreKeys {

    static final int ORDER_KEY_BYTES = Long.BYTES;
    static final int TIMESTAMP_BYTES = Long.BYTES;

    private StoreKeys() { }

    /** The store key of {@code key}. */
    static byte[] of(DocumentKey key) {
        return of(key.orderKey(), key.id().getBytes(StandardCharsets.UTF_8));
    }

    /** The store key of the document whose id's UTF-8 bytes are {@code id} and whose bucket has {@code orderKey}. */
    static byte[] of(long orderKey, byte[] id) {
        return ByteBuffer.allocate(ORDER_KEY_BYTES + id.length).putLong(orderKey).put(id).array();
    }

    /** The document key a store key encodes. */
    static DocumentKey documentKey(byte[] storeKey) {
        return new DocumentKey(orderKey(storeKey),
                               new String(storeKey, ORDER_KEY_BYTES, storeKey.length - ORDER_KEY_BYTES,
                                          StandardCharsets.UTF_8));
    }

    /** The order key at the start of a store key. */
    static long orderKey(byte[] storeKey) {
        return ByteBuffer.wrap(storeKey, 0, ORDER_KEY_BYTES).getLong();
    }

    /** The tombstone index key of a tombstone written at {@code timestamp} for the document at {@code storeKey}. */
    static byte[] tombstoneIndexKey(long timestamp, byte[] storeKey) {
        return ByteBuffer.allocate(TIMESTAMP_BYTES + storeKey.length).putLong(timestamp).put(storeKey).array();
    }

    /** The smallest tombstone index key of tombstones written at {@code timestamp} or later. */
    static byte[] tombstoneIndexStart(long timestamp) {
        return ByteBuffer.allocate(TIMESTAMP_BYTES).putLong(timestamp).array();
    }

    /** The timestamp of a tombstone index key. */
    static long tombstoneTimestamp(byte[] indexKey) {
        return ByteBuffer.wrap(indexKey, 0, TIMESTAMP_BYTES).getLong();
    }

    /** The document store key inside a tombstone index key. */
    static byte[] tombstoneStoreKey(byte[] indexKey) {
        return Arrays.copyOfRange(indexKey, TIMESTAMP_BYTES, indexKey.length);
    }

}

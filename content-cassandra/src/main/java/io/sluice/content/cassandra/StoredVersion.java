package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The newest version of a document as one row holds it: a live document's fields as JSON, or a tombstone.
 *
 * @param timestamp microseconds the backend gave this version
 * @param removed   whether this is a tombstone
 * @param body      the fields JSON of a live document; null for a tombstone
 * @param op        the lightweight transaction attempt that wrote this version; null if a plain write did
 * @param writeTime Cassandra's write timestamp of the version's cells (µs), or {@link #UNKNOWN} if not read
 */
record StoredVersion(long timestamp, boolean removed, byte[] body, UUID op, long writeTime) {

    static final long UNKNOWN = Long.MIN_VALUE;

    /**
     * The {@code op} a plain write stores: the nil UUID, which no transaction attempt has (they are random, version
     * 4). Not null: setting a column to null writes a cell tombstone, one per row, which every read of the row counts
     * and a visit's page of a thousand rows would report as a thousand tombstones in the node's log. Read back as null.
     */
    static final UUID PLAIN_WRITE = new UUID(0, 0);

    /**
     * The version in {@code row}, whose columns start at {@code first} in the order of {@link Schema#COLUMNS}; its
     * write time unknown.
     */
    static StoredVersion of(Row row, int first) {
        return of(row, first, UNKNOWN);
    }

    /** The version in a row of {@link Schema#COLUMNS} followed by the write time of {@code ts}. */
    static StoredVersion withWriteTime(Row row) {
        return of(row, 0, row.getLong(4));
    }

    private static StoredVersion of(Row row, int first, long writeTime) {
        ByteBuffer body = row.getByteBuffer(first + 2);
        byte[] bytes = null;
        if (body != null) {
            bytes = new byte[body.remaining()];
            body.duplicate().get(bytes);
        }
        UUID op = row.getUuid(first + 3);
        return new StoredVersion(row.getLong(first), row.getBoolean(first + 1), bytes,
                                 PLAIN_WRITE.equals(op) ? null : op, writeTime);
    }

    boolean isLive() {
        return !removed;
    }

    /** Whether a plain (timestamped, non-Paxos) write wrote this version. */
    boolean isPlainWritten() {
        return op == null;
    }

}

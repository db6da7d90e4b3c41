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
 * @param op        the write attempt that wrote this version
 */
record StoredVersion(long timestamp, boolean removed, byte[] body, UUID op) {

    /** The version in {@code row}, whose columns start at {@code first} in the order of {@link Schema#COLUMNS}. */
    static StoredVersion of(Row row, int first) {
        ByteBuffer body = row.getByteBuffer(first + 2);
        byte[] bytes = null;
        if (body != null) {
            bytes = new byte[body.remaining()];
            body.duplicate().get(bytes);
        }
        return new StoredVersion(row.getLong(first), row.getBoolean(first + 1), bytes, row.getUuid(first + 3));
    }

    boolean isLive() {
        return !removed;
    }

}

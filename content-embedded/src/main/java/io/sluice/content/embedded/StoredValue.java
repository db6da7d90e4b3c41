package io.sluice.content.embedded;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.json.DocumentJson;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.DocumentJsonWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The value stored under a document's key: a kind byte, the version's timestamp (8 big-endian bytes, microseconds)
 * and, for a live document, its fields in the JSON put form {@code {"fields":{...}}}, which RocksDB's block
 * compression shrinks well. A tombstone has no body.
 *
 * <p>The header alone answers "is there a live version, and when was it written", so writes that need no
 * condition read only {@link #HEADER_BYTES} bytes of the previous value.
 */
final class StoredValue {

    static final int HEADER_BYTES = 1 + Long.BYTES;
    private static final byte TOMBSTONE = 0;
    private static final byte JSON_DOCUMENT = 1;

    private StoredValue() { }

    /** The stored form of a live {@code document} written at {@code timestamp}. */
    static byte[] document(Document document, long timestamp) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        out.write(JSON_DOCUMENT);
        out.writeBytes(ByteBuffer.allocate(Long.BYTES).putLong(timestamp).array());
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            generator.writeStartObject();
            generator.writeFieldName("fields");
            DocumentJsonWriter.create().writeFields(generator, document);
            generator.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The stored form of a tombstone written at {@code timestamp}. */
    static byte[] tombstone(long timestamp) {
        return ByteBuffer.allocate(HEADER_BYTES).put(TOMBSTONE).putLong(timestamp).array();
    }

    /**
     * Whether {@code value} (at least its header) is a live document.
     *
     * @throws IllegalStateException naming the kind byte if the value is of an unknown kind
     */
    static boolean isLive(byte[] value) {
        byte kind = value[0];
        if (kind != TOMBSTONE && kind != JSON_DOCUMENT) {
            throw new IllegalStateException("Stored value of unknown kind " + kind + "; the data directory was "
                                            + "written by a newer version, or is corrupt");
        }
        return kind == JSON_DOCUMENT;
    }

    /** The timestamp in {@code value}'s header. */
    static long timestamp(byte[] value) {
        return ByteBuffer.wrap(value, 1, Long.BYTES).getLong();
    }

    /**
     * The document {@code id} stored as the full live {@code value}; fields its type no longer has are dropped.
     *
     * @throws io.sluice.document.DocumentException if the id's type is not among the reader's types
     */
    static Document decode(DocumentId id, byte[] value, DocumentJsonReader reader) {
        return reader.readPut(id, value, HEADER_BYTES, value.length - HEADER_BYTES).document();
    }

}

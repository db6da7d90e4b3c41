package io.sluice.content.embedded;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.json.DocumentJson;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.DocumentJsonWriter;
import io.sluice.document.json.FieldsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The value stored under a document's key: a kind byte, the version's timestamp (8 big-endian bytes, microseconds)
 * and, for a live document, the {@link DocumentType#fingerprint() fingerprint} of the type it was written with
 * (4 bytes) and its fields in the JSON put form {@code {"fields":{...}}}, which RocksDB's block compression shrinks
 * well. A tombstone has no body.
 *
 * <p>The header alone answers "is there a live version, and when was it written", so the tombstone sweep reads only
 * {@link #HEADER_BYTES} bytes of a value. The fingerprint tells whether the stored JSON
 * is still exactly what the writer would make of the decoded document under today's schema, so a get can send it as it
 * is ({@link #fieldsJson}). Values of the older live kind, without a fingerprint, are still read, always by decoding.
 */
final class StoredValue {

    static final int HEADER_BYTES = 1 + Long.BYTES;
    private static final byte TOMBSTONE = 0;
    /** A live document without a fingerprint: written before fingerprints were stored. */
    private static final byte JSON_DOCUMENT = 1;
    /** A live document with the fingerprint of its type after the header. */
    private static final byte JSON_DOCUMENT_WITH_TYPE = 2;
    private static final int FINGERPRINTED_BODY = HEADER_BYTES + Integer.BYTES;
    /** What the writer puts before the fields object, and after it. */
    private static final byte[] FIELDS_START = "{\"fields\":".getBytes(StandardCharsets.US_ASCII);
    private static final int FIELDS_PREFIX = FIELDS_START.length, FIELDS_SUFFIX = "}".length();

    private StoredValue() { }

    /** The stored form of a live {@code document} written at {@code timestamp}. */
    static byte[] document(Document document, long timestamp) {
        return document(document, null, timestamp);
    }

    /**
     * The stored form of a live {@code document} written at {@code timestamp}, whose fields object
     * {@link DocumentJsonWriter#writeFields} writes as {@code fields} when those are given: then they are copied, not
     * written again. A 1 KiB put spent ~7.8% of the server's CPU writing them (async-profiler, h2c POST 4x256,
     * 2026-11-28).
     */
    static byte[] document(Document document, FieldsJson fields, long timestamp) {
        if (fields != null) {
            byte[] value = new byte[FINGERPRINTED_BODY + FIELDS_PREFIX + fields.length() + FIELDS_SUFFIX];
            ByteBuffer.wrap(value).put(JSON_DOCUMENT_WITH_TYPE).putLong(timestamp).putInt(document.type().fingerprint())
                      .put(FIELDS_START).put(fields.bytes(), fields.offset(), fields.length()).put((byte) '}');
            return value;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        out.write(JSON_DOCUMENT_WITH_TYPE);
        out.writeBytes(ByteBuffer.allocate(Long.BYTES + Integer.BYTES).putLong(timestamp)
                                 .putInt(document.type().fingerprint()).array());
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
        if (kind != TOMBSTONE && kind != JSON_DOCUMENT && kind != JSON_DOCUMENT_WITH_TYPE) {
            throw new IllegalStateException("Stored value of unknown kind " + kind + "; the data directory was "
                                            + "written by a newer version, or is corrupt");
        }
        return kind != TOMBSTONE;
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
        int body = bodyOffset(value);
        return reader.readPut(id, value, body, value.length - body).document();
    }

    /**
     * The fields of the full live {@code value} as they are, if it was written with the fingerprint {@code type} has
     * today: then decoding and writing them again would give the same bytes. Empty for a value of the older kind, or
     * one written under another schema.
     */
    static Optional<FieldsJson> fieldsJson(byte[] value, DocumentType type) {
        if (value[0] != JSON_DOCUMENT_WITH_TYPE || ByteBuffer.wrap(value, HEADER_BYTES, Integer.BYTES).getInt() != type.fingerprint())
            return Optional.empty();
        int start = FINGERPRINTED_BODY + FIELDS_PREFIX;
        return Optional.of(new FieldsJson(value, start, value.length - start - FIELDS_SUFFIX));
    }

    private static int bodyOffset(byte[] value) {
        return value[0] == JSON_DOCUMENT_WITH_TYPE ? FINGERPRINTED_BODY : HEADER_BYTES;
    }

}

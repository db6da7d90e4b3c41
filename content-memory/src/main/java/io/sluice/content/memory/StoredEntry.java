package io.sluice.content.memory;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.json.DocumentJson;
import io.sluice.document.json.DocumentJsonWriter;
import io.sluice.document.json.FieldsJson;
import io.sluice.content.Version;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The newest version of one document: the document itself, or a tombstone ({@code document == null}). A live entry
 * may also keep its fields as {@link FieldsJson}, written the first time a get needs them ({@link #keepFieldsJson}),
 * so later gets of the whole document send those bytes instead of writing the document again. Only operations on the
 * document, one at a time (under its lock, or in its sequencer's order), write that; everything else is fixed. Gets
 * that find it written read it without the lock.
 */
final class StoredEntry implements Version {

    private static final DocumentJsonWriter FIELDS_WRITER = DocumentJsonWriter.of(FieldsJson.TENSOR_FORMAT);

    private final DocumentId id;
    private final DocumentType type;
    private final Document document;
    private final long timestamp;
    private final long bytes;
    private volatile FieldsJson fieldsJson; // null until kept; written by operations on the document, one at a time

    private StoredEntry(DocumentId id, DocumentType type, Document document, long timestamp, long bytes) {
        this.id = id;
        this.type = type;
        this.document = document;
        this.timestamp = timestamp;
        this.bytes = bytes;
    }

    /** A live document of an estimated {@code bytes}. */
    static StoredEntry live(Document document, long timestamp, long bytes) {
        return new StoredEntry(document.id(), document.type(), document, timestamp, bytes);
    }

    static StoredEntry tombstone(DocumentId id, DocumentType type, long timestamp) {
        return new StoredEntry(id, type, null, timestamp, 0);
    }

    DocumentId id() {
        return id;
    }

    DocumentType type() {
        return type;
    }

    /** The document's estimated size (0 for a tombstone), as visits count it. */
    long bytes() {
        return bytes;
    }

    /** What the entry holds against the store's byte limit: the document and, once kept, its fields' JSON. */
    long storedBytes() {
        return bytes + (fieldsJson == null ? 0 : fieldsJson.length());
    }

    @Override
    public boolean isLive() {
        return document != null;
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    @Override
    public Document document() {
        return document;
    }

    @Override
    public Optional<FieldsJson> fieldsJson() {
        return Optional.ofNullable(fieldsJson);
    }

    /**
     * Whether a get of the whole document would keep its fields as JSON: it is live and they are not kept. Any thread
     * may ask: once kept, the JSON stays (the field is volatile).
     */
    boolean needsFieldsJson() {
        return document != null && fieldsJson == null;
    }

    /**
     * Writes the live document's fields as {@link FieldsJson} and keeps them, unless kept already, or {@code room}
     * refuses their size; call only from an operation on this document.
     *
     * @param room takes the bytes against the store's limit, returning whether there was room for them
     */
    void keepFieldsJson(LongPredicate room) {
        if (fieldsJson != null || document == null)
            return;
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, (int) Math.min(1 << 20, bytes)));
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            FIELDS_WRITER.writeFields(generator, document);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] json = out.toByteArray();
        if (room.test(json.length))
            fieldsJson = new FieldsJson(json, 0, json.length);
    }

}

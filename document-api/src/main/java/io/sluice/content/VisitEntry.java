package io.sluice.content;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.json.FieldsJson;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One item a visit returns: a document (filtered by the visit's field set) or, with {@code includeRemoves}, the
 * tombstone of a removed one; either with the backend timestamp of that version, and the engine's estimate of the
 * bytes the entry took in its store ({@link #size()}), which is what a visit's byte limit counts.
 */
public final class VisitEntry {

    private final DocumentId id;
    private final long timestamp;
    private Document document; // decoded from decoder on first use when the entry has fieldsJson
    private final Supplier<Document> decoder;
    private final FieldsJson fieldsJson;
    private final long size;

    private VisitEntry(DocumentId id, long timestamp, Document document, Supplier<Document> decoder,
                       FieldsJson fieldsJson, long size) {
        this.id = Objects.requireNonNull(id, "id");
        this.timestamp = timestamp;
        this.document = document;
        this.decoder = decoder;
        this.fieldsJson = fieldsJson;
        if (size < 0) {
            throw new IllegalArgumentException("size must not be negative, but was " + size);
        }
        this.size = size;
    }

    /** A document stored at {@code timestamp}, of unknown (zero) size. */
    public static VisitEntry put(Document document, long timestamp) {
        return put(document, timestamp, 0);
    }

    /** A document stored at {@code timestamp}, taking about {@code size} bytes in its store. */
    public static VisitEntry put(Document document, long timestamp, long size) {
        return new VisitEntry(document.id(), timestamp, document, null, null, size);
    }

    /**
     * The whole document {@code id} stored at {@code timestamp}, whose fields the engine holds as {@code fieldsJson}:
     * a response can be written from those bytes; {@link #document()} decodes them with {@code decoder} only if asked.
     */
    public static VisitEntry put(DocumentId id, FieldsJson fieldsJson, Supplier<Document> decoder, long timestamp, long size) {
        return new VisitEntry(id, timestamp, null, Objects.requireNonNull(decoder, "decoder"),
                              Objects.requireNonNull(fieldsJson, "fieldsJson"), size);
    }

    /** The tombstone of {@code id}, removed at {@code timestamp}. */
    public static VisitEntry remove(DocumentId id, long timestamp) {
        return new VisitEntry(id, timestamp, null, null, null, 0);
    }

    public DocumentId id() {
        return id;
    }

    /** Microseconds the backend assigned to this version. */
    public long timestamp() {
        return timestamp;
    }

    /** About the bytes this entry took in its store (0 if unknown); not part of equality. */
    public long size() {
        return size;
    }

    /** Whether this is a tombstone. */
    public boolean isRemove() {
        return document == null && decoder == null;
    }

    /** The document; empty for a tombstone. */
    public Optional<Document> document() {
        if (document == null && decoder != null)
            document = decoder.get(); // immutable: a race decodes twice, harmlessly
        return Optional.ofNullable(document);
    }

    /**
     * For a whole document the engine holds as JSON of the current types: its fields, as
     * {@link io.sluice.document.json.DocumentJsonWriter} writes them with short tensors. Empty otherwise.
     */
    public Optional<FieldsJson> fieldsJson() {
        return Optional.ofNullable(fieldsJson);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof VisitEntry)) {
            return false;
        }
        VisitEntry other = (VisitEntry) o;
        return id.equals(other.id) && timestamp == other.timestamp && Objects.equals(document(), other.document());
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, timestamp);
    }

    @Override
    public String toString() {
        return (isRemove() ? "remove " + id : document != null ? "put " + document : "put " + id + " " + fieldsJson)
               + " @" + timestamp;
    }

}

package io.sluice.content.cassandra;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.content.Version;
import io.sluice.document.json.DocumentJson;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.DocumentJsonWriter;

import io.sluice.document.json.FieldsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Stores a document's fields as the JSON fields object of Vespa's put format (tensors in their short form), and reads
 * them back against the current document types. Reading is lenient: a field the schema no longer has is dropped
 * rather than making the stored document unreadable. The JSON is preceded by the fingerprint of the type it was
 * written under, so that while the schema is unchanged a get or visit sends the stored JSON as it is.
 */
final class DocumentCodec {

    /** The first byte of a body that carries its type's fingerprint before the JSON. */
    private static final byte FINGERPRINTED = 2;
    private static final int FINGERPRINTED_HEADER = 1 + Integer.BYTES;

    private final DocumentTypes types;
    private final DocumentJsonReader reader;
    private final DocumentJsonWriter writer = DocumentJsonWriter.create();

    DocumentCodec(DocumentTypes types) {
        this.types = types;
        this.reader = DocumentJsonReader.stored(types);
    }

    /**
     * The body of {@code document}: {@link #FINGERPRINTED}, its type's fingerprint (4 bytes, big-endian), then its
     * fields as JSON. Bodies written before the fingerprint are the bare JSON, which starts with '{'.
     */
    byte[] encode(Document document) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.write(FINGERPRINTED);
        int fingerprint = document.type().fingerprint();
        out.write(fingerprint >>> 24);
        out.write(fingerprint >>> 16);
        out.write(fingerprint >>> 8);
        out.write(fingerprint);
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            writer.writeFields(generator, document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The live document {@code version} holds.
     *
     * @throws io.sluice.document.DocumentException if its type is unknown or the stored JSON does not fit it
     */
    Document decode(DocumentId id, StoredVersion version) {
        return decode(id, version.body());
    }

    /**
     * The live document {@code id} stored as {@code body}.
     *
     * @throws io.sluice.document.DocumentException if its type is unknown or the JSON does not fit it
     */
    Document decode(DocumentId id, byte[] body) {
        int start = isFingerprinted(body) ? FINGERPRINTED_HEADER : 0;
        return reader.readFields(id, body, start, body.length - start).document();
    }

    /**
     * The fields JSON in {@code body} as it is, if it was written under the fingerprint {@code type} has today: then
     * decoding it and writing it again would give the same bytes, so a get or visit may send it without decoding.
     * Empty for a body written before fingerprints, or under another schema.
     */
    Optional<FieldsJson> fieldsJson(DocumentType type, byte[] body) {
        if (!isFingerprinted(body) || ByteBuffer.wrap(body, 1, Integer.BYTES).getInt() != type.fingerprint()) {
            return Optional.empty();
        }
        return Optional.of(new FieldsJson(body, FINGERPRINTED_HEADER, body.length - FINGERPRINTED_HEADER));
    }

    private static boolean isFingerprinted(byte[] body) {
        return body.length > FINGERPRINTED_HEADER && body[0] == FINGERPRINTED;
    }

    /** {@code stored} (null for none) as the write rules see it: its document is decoded only if they ask. */
    Version version(DocumentId id, StoredVersion stored) {
        if (stored == null) {
            return null;
        }
        return new Version() {
            @Override
            public boolean isLive() {
                return stored.isLive();
            }

            @Override
            public long timestamp() {
                return stored.timestamp();
            }

            @Override
            public Document document() {
                return decode(id, stored);
            }

            @Override
            public Optional<FieldsJson> fieldsJson() {
                Optional<DocumentType> type = types.find(id.documentType());
                return stored.isLive() && type.isPresent() ? DocumentCodec.this.fieldsJson(type.get(), stored.body())
                                                           : Optional.empty();
            }
        };
    }

    /** The type of documents with {@code id}, if the schema has it. */
    Optional<DocumentType> type(DocumentId id) {
        return types.find(id.documentType());
    }

}

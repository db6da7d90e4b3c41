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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * Stores a document's fields as the JSON fields object of Vespa's put format (tensors in their short form), and reads
 * them back against the current document types. Reading is lenient: a field the schema no longer has is dropped
 * rather than making the stored document unreadable.
 */
final class DocumentCodec {

    private final DocumentTypes types;
    private final DocumentJsonReader reader;
    private final DocumentJsonWriter writer = DocumentJsonWriter.create();

    DocumentCodec(DocumentTypes types) {
        this.types = types;
        this.reader = DocumentJsonReader.lenient(types);
    }

    byte[] encode(Document document) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
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
        return reader.readFields(id, version.body()).document();
    }

    /**
     * The live document {@code id} whose stored fields JSON is {@code fields}.
     *
     * @throws io.sluice.document.DocumentException if its type is unknown or the JSON does not fit it
     */
    Document decode(DocumentId id, byte[] fields) {
        return reader.readFields(id, fields).document();
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
        };
    }

    /** The type of documents with {@code id}, if the schema has it. */
    Optional<DocumentType> type(DocumentId id) {
        return types.find(id.documentType());
    }

}

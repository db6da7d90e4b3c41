package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.DataType;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.Field;
import io.sluice.document.FieldValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Reads document put bodies in Vespa's JSON format with a streaming parser. Thread-safe.
 *
 * <p>Strict readers reject fields the document type does not have ({@link UnknownFieldException}); lenient ones
 * skip them and report them in {@link ParsedPut#ignoredFields()}. Every other problem is a
 * {@link DocumentJsonException} whose message is the text for a 400 response. Predicate values are read in Vespa's
 * canonical form; client input that is not a predicate fails, while the {@link #stored} reader keeps it as it is.
 */
public final class DocumentJsonReader {

    private final DocumentTypes types;
    private final boolean ignoreUndefinedFields;
    private final boolean stored;

    private DocumentJsonReader(DocumentTypes types, boolean ignoreUndefinedFields, boolean stored) {
        this.types = Objects.requireNonNull(types, "types");
        this.ignoreUndefinedFields = ignoreUndefinedFields;
        this.stored = stored;
    }

    /** A reader of client input that fails on unknown fields (Vespa's default). */
    public static DocumentJsonReader strict(DocumentTypes types) {
        return new DocumentJsonReader(types, false, false);
    }

    /** A reader of client input that skips and reports unknown fields ({@code ignore-undefined-fields}). */
    public static DocumentJsonReader lenient(DocumentTypes types) {
        return new DocumentJsonReader(types, true, false);
    }

    /**
     * A reader of what an engine stored: skips fields the types no longer have, and keeps predicate text that does
     * not parse as it is rather than failing, since it may have been stored before predicates were checked.
     */
    public static DocumentJsonReader stored(DocumentTypes types) {
        return new DocumentJsonReader(types, true, true);
    }

    /** The types this reader reads documents into. */
    public DocumentTypes types() {
        return types;
    }

    /**
     * Reads a /document/v1 put body: {@code {"fields":{...}, "condition":..., "create":...}}; other top-level keys
     * are skipped. The document gets {@code id}; its type is the id's document type.
     *
     * @throws io.sluice.document.DocumentException if the id's document type does not exist
     * @throws DocumentJsonException if the body is malformed or does not fit the type
     */
    public ParsedPut readPut(DocumentId id, byte[] body) {
        return readPut(id, body, 0, body.length);
    }

    /** As {@link #readPut(DocumentId, byte[])}, for {@code length} bytes of {@code body} from {@code offset}. */
    public ParsedPut readPut(DocumentId id, byte[] body, int offset, int length) {
        DocumentType type = types.get(id.documentType());
        try (JsonParser parser = DocumentJson.factory().createParser(body, offset, length)) {
            JsonToken root = parser.nextToken();
            if (root != JsonToken.START_OBJECT)
                throw new DocumentJsonException("expected start of root object, got " + root);
            Document.Builder document = null;
            String condition = null;
            Boolean create = null;
            List<String> ignored = new ArrayList<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "fields":
                        if (document == null) document = Document.builder(type, id);
                        readFields(parser, type, id, document, ignored);
                        break;
                    case "condition":
                        if (value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NULL)
                            throw new DocumentJsonException("expected string value for condition, got " + value);
                        condition = value == JsonToken.VALUE_NULL ? null : parser.getText();
                        break;
                    case "create":
                        if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE)
                            throw new DocumentJsonException("failed parsing document: Current token (" + value
                                                            + ") not of boolean type");
                        create = value == JsonToken.VALUE_TRUE;
                        break;
                    default:
                        parser.skipChildren();
                }
            }
            JsonToken trailing = parser.nextToken();
            if (trailing != null) throw new DocumentJsonException("expected end of input, got " + trailing);
            if (document == null) throw new DocumentJsonException("document is missing the required \"fields\" field");
            return new ParsedPut(document.build(), condition, create, ignored);
        } catch (IOException e) {
            throw syntaxError(e);
        }
    }

    /**
     * Reads a bare fields object {@code {"title":"x", ...}} into a document with {@code id}.
     *
     * @throws DocumentJsonException if the JSON is malformed or does not fit the type
     */
    public ParsedPut readFields(DocumentId id, byte[] json) {
        return readFields(id, json, 0, json.length);
    }

    /**
     * Reads a bare fields object in {@code length} bytes of {@code json} from {@code offset} into a document with
     * {@code id}.
     *
     * @throws DocumentJsonException if the JSON is malformed or does not fit the type
     */
    public ParsedPut readFields(DocumentId id, byte[] json, int offset, int length) {
        DocumentType type = types.get(id.documentType());
        try (JsonParser parser = DocumentJson.factory().createParser(json, offset, length)) {
            JsonToken root = parser.nextToken();
            if (root != JsonToken.START_OBJECT)
                throw new DocumentJsonException("expected start of root object, got " + root);
            Document.Builder document = Document.builder(type, id);
            List<String> ignored = new ArrayList<>();
            readFields(parser, type, id, document, ignored);
            JsonToken trailing = parser.nextToken();
            if (trailing != null) throw new DocumentJsonException("expected end of input, got " + trailing);
            return new ParsedPut(document.build(), null, null, ignored);
        } catch (IOException e) {
            throw syntaxError(e);
        }
    }

    /** Input is in memory, so every I/O failure is malformed content (bad JSON, bad encoding). */
    private static DocumentJsonException syntaxError(IOException e) {
        if (!(e instanceof JsonProcessingException))
            return new DocumentJsonException("failed parsing document: " + e.getMessage(), e);
        JsonProcessingException json = (JsonProcessingException) e;
        String where = json.getLocation() == null ? ""
                : " at line " + json.getLocation().getLineNr() + ", column " + json.getLocation().getColumnNr();
        return new DocumentJsonException("failed parsing document: " + json.getOriginalMessage() + where, e);
    }

    /** Reads the fields object at the current token into {@code document}. */
    private void readFields(JsonParser parser, DocumentType type, DocumentId id, Document.Builder document,
                            List<String> ignored) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("expected start of object for \"fields\", got " + parser.currentToken());
        JsonValueReader values = new JsonValueReader(ignoreUndefinedFields, ignored::add, stored);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            Field field = type.field(name).orElse(null);
            if (field == null) {
                if (!ignoreUndefinedFields) throw JsonValueReader.unknownField(name, type.name(), type.fields());
                ignored.add(name);
                parser.skipChildren();
                continue;
            }
            DataType fieldType = field.type();
            if (JsonValueReader.isUnset(parser, fieldType)) continue;
            FieldValue value;
            try {
                value = values.read(parser, fieldType, name);
            } catch (DocumentJsonException e) {
                throw e.withPrefix("In document '" + id + "': Could not parse " + field + ": ");
            }
            document.set(name, value);
        }
    }
}

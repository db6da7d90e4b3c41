package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.DocumentException;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.Field;
import io.sluice.document.FieldPath;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads /document/v1 update bodies ({@code {"fields":{...}, "condition":..., "create":...}}) in Vespa's JSON format
 * with a streaming parser. Every operation of the format is read: assign (null clears), add, remove, the four
 * arithmetic operations, match, tensor add/remove/modify, and field-path updates (keys containing '.', '[' or '{').
 * Values are read by {@link JsonValueReader}, as in put bodies. Thread-safe.
 *
 * <p>Strict readers reject fields the document type does not have with {@link UnknownFieldException}
 * ({@code Error in 'x': No field named 'x' in document type 't'}); lenient ones skip them and report them in
 * {@link ParsedUpdate#ignoredFields()}. Every other problem is a {@link DocumentJsonException} whose message is the
 * text for a 400 response, prefixed {@code Error in '<field>': } when it concerns one field.
 */
public final class DocumentUpdateJsonReader {

    private final DocumentTypes types;
    private final boolean ignoreUndefinedFields;

    private DocumentUpdateJsonReader(DocumentTypes types, boolean ignoreUndefinedFields) {
        this.types = Objects.requireNonNull(types, "types");
        this.ignoreUndefinedFields = ignoreUndefinedFields;
    }

    /** A reader that fails on unknown fields (Vespa's default). */
    public static DocumentUpdateJsonReader strict(DocumentTypes types) {
        return new DocumentUpdateJsonReader(types, false);
    }

    /** A reader that skips and reports unknown fields ({@code ignore-undefined-fields}). */
    public static DocumentUpdateJsonReader lenient(DocumentTypes types) {
        return new DocumentUpdateJsonReader(types, true);
    }

    /**
     * Reads an update body for the document {@code id}; its type is the id's document type. Top-level keys other
     * than {@code fields}, {@code condition} and {@code create} are skipped.
     *
     * @throws DocumentException if the id's document type does not exist
     * @throws DocumentJsonException if the body is malformed or does not fit the type
     */
    public ParsedUpdate readUpdate(DocumentId id, byte[] body) {
        return readUpdate(id, body, 0, body.length);
    }

    /** As {@link #readUpdate(DocumentId, byte[])}, for {@code length} bytes of {@code body} from {@code offset}. */
    public ParsedUpdate readUpdate(DocumentId id, byte[] body, int offset, int length) {
        DocumentType type = types.get(id.documentType());
        try (JsonParser parser = DocumentJson.factory().createParser(body, offset, length)) {
            JsonToken root = parser.nextToken();
            if (root != JsonToken.START_OBJECT)
                throw new DocumentJsonException("expected start of root object, got " + root);
            DocumentUpdate.Builder update = null;
            String condition = null;
            Boolean create = null;
            List<String> ignored = new ArrayList<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "fields":
                        if (update == null) update = DocumentUpdate.builder(type, id);
                        readFields(parser, type, update, ignored);
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
            if (update == null) throw new DocumentJsonException("document is missing the required \"fields\" field");
            update.createIfNonExistent(create != null && create);
            return new ParsedUpdate(update.build(), condition, create, ignored);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new DocumentJsonException("failed parsing document: " + e.getOriginalMessage() + where, e);
        } catch (IOException e) {
            // Reading from memory, so this is bad input too: e.g. bytes that are not valid in the detected encoding.
            throw new DocumentJsonException("failed parsing document: " + e.getMessage(), e);
        }
    }

    private void readFields(JsonParser parser, DocumentType type, DocumentUpdate.Builder update, List<String> ignored)
            throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("expected start of object for \"fields\", got " + parser.currentToken());
        UpdateOperationReader operations = new UpdateOperationReader(
                new JsonValueReader(ignoreUndefinedFields, ignored::add));
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            parser.nextToken();
            boolean isPath = FieldPath.isFieldPath(key);
            String fieldName = isPath ? FieldPath.fieldName(key) : key;
            Optional<Field> field = type.field(fieldName);
            if (field.isEmpty()) {
                if (!ignoreUndefinedFields)
                    throw new UnknownFieldException("Error in '" + key + "': No field named '" + fieldName
                                                    + "' in document type '" + type.name() + "'", fieldName);
                ignored.add(key);
                parser.skipChildren();
                continue;
            }
            try {
                if (isPath) operations.readPathOperations(parser, type, key, update);
                else operations.readFieldOperations(parser, field.get(), update);
            } catch (DocumentJsonException e) {
                throw e.withPrefix("Error in '" + key + "': ");
            } catch (DocumentException e) {
                throw new DocumentJsonException("Error in '" + key + "': " + e.getMessage(), e);
            }
        }
    }
}

package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.BoolValue;
import io.sluice.document.ByteValue;
import io.sluice.document.DataType;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.DoubleValue;
import io.sluice.document.Field;
import io.sluice.document.FieldValue;
import io.sluice.document.FloatValue;
import io.sluice.document.IntValue;
import io.sluice.document.LongValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
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
            FieldsJson fields = null;
            String condition = null;
            Boolean create = null;
            List<String> ignored = new ArrayList<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "fields":
                        boolean again = document != null;
                        if (document == null) document = Document.builder(type, id);
                        FieldsJson read = readFields(parser, type, id, document, ignored, body, offset);
                        fields = again ? null : read; // a second fields object adds to the first one's
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
            return new ParsedPut(document.build(), fields, condition, create, ignored);
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
            FieldsJson fields = readFields(parser, type, id, document, ignored, json, offset);
            JsonToken trailing = parser.nextToken();
            if (trailing != null) throw new DocumentJsonException("expected end of input, got " + trailing);
            return new ParsedPut(document.build(), fields, null, null, ignored);
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

    /**
     * Reads the fields object at the current token into {@code document}. Returns its bytes in {@code json} (whose
     * parser starts at {@code offset}) if they are exactly what {@link DocumentJsonWriter#writeFields} writes for the
     * document, else null: see {@link WrittenLength}.
     */
    private FieldsJson readFields(JsonParser parser, DocumentType type, DocumentId id, Document.Builder document,
                                  List<String> ignored, byte[] json, int offset) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("expected start of object for \"fields\", got " + parser.currentToken());
        // Only client input is worth it: what an engine stored is decoded, never stored again.
        WrittenLength written = new WrittenLength(!stored);
        long start = stored ? -1 : parser.currentTokenLocation().getByteOffset();
        JsonValueReader values = new JsonValueReader(ignoreUndefinedFields, ignored::add, stored);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            int index = type.fieldIndex(name);
            if (index < 0) {
                if (!ignoreUndefinedFields) throw JsonValueReader.unknownField(name, type.name(), type.fields());
                ignored.add(name);
                parser.skipChildren();
                written.notAsWritten();
                continue;
            }
            Field field = type.fieldAt(index);
            DataType fieldType = field.type();
            if (JsonValueReader.isUnset(parser, fieldType)) {
                written.notAsWritten();
                continue;
            }
            FieldValue value;
            try {
                value = values.read(parser, fieldType, name);
            } catch (DocumentJsonException e) {
                throw e.withPrefix("In document '" + id + "': Could not parse " + field + ": ");
            }
            written.field(index, name, fieldType, value, parser);
            document.set(name, value);
        }
        if (start < 0 || values.readUnquotedStrings()) return null; // offsets are -1 where the parser reads characters
        long end = parser.currentLocation().getByteOffset();
        if (end - start != written.length()) return null;
        int from = offset + (int) start, length = (int) (end - start);
        if (json[from] != '{' || json[from + length - 1] != '}') return null; // offsets not of these bytes
        return new FieldsJson(json, from, length);
    }

    /**
     * The length of a fields object as {@link DocumentJsonWriter#writeFields} writes it, summed while it is read, for
     * fields whose input text is never shorter than what the writer writes for them, and of the same length only when
     * it is the same text: quoted strings (counted as one byte per character, which only ASCII without escapes takes),
     * integers and booleans (JSON literals take their written length, quoted forms more), arrays of those, and
     * floating-point values, whose text is compared. Whitespace, escapes and skipped fields only add bytes, so input
     * of exactly this length is the writer's text. A field out of the type's order, an empty value (the writer leaves
     * it out), or a value of any other kind makes the length {@code -1}.
     */
    private static final class WrittenLength {

        private long length;
        private int lastIndex = -1;

        /** Counts from the braces, or not at all (the length stays -1) unless {@code counting}. */
        WrittenLength(boolean counting) {
            length = counting ? 2 : -1;
        }

        long length() {
            return length;
        }

        void notAsWritten() {
            length = -1;
        }

        void field(int index, String name, DataType type, FieldValue value, JsonParser parser) throws IOException {
            if (length < 0) return;
            if (index <= lastIndex || value.isEmpty()) {
                notAsWritten();
                return;
            }
            long valueLength = value(type, value, parser);
            if (valueLength < 0) {
                notAsWritten();
                return;
            }
            length += (lastIndex < 0 ? 0 : 1) + name.length() + 3 + valueLength; // ,"name":value
            lastIndex = index;
        }

        /** The value's written length, or -1; the parser is still on the value's token, for floating-point text. */
        private static long value(DataType type, FieldValue value, JsonParser parser) throws IOException {
            if (type == PrimitiveType.DOUBLE && value instanceof DoubleValue)
                return sameText(parser, Double.toString(((DoubleValue) value).value()));
            if (type == PrimitiveType.FLOAT && value instanceof FloatValue)
                return sameText(parser, Float.toString(((FloatValue) value).value()));
            if (type instanceof ArrayType) {
                DataType elementType = ((ArrayType) type).elementType();
                long total = 1; // [
                for (FieldValue element : ((ArrayValue) value).elements()) {
                    long elementLength = scalar(elementType, element);
                    if (elementLength < 0) return -1;
                    total += elementLength + 1; // , or ]
                }
                return total;
            }
            return scalar(type, value);
        }

        private static long sameText(JsonParser parser, String written) throws IOException {
            JsonToken token = parser.currentToken();
            boolean number = token == JsonToken.VALUE_NUMBER_FLOAT || token == JsonToken.VALUE_NUMBER_INT;
            return number && written.equals(parser.getText()) ? written.length() : -1;
        }

        private static long scalar(DataType type, FieldValue value) {
            if (type == PrimitiveType.STRING && value instanceof StringValue)
                return ((StringValue) value).value().length() + 2L;
            if (type == PrimitiveType.INT && value instanceof IntValue) return digits(((IntValue) value).value());
            if (type == PrimitiveType.LONG && value instanceof LongValue) return digits(((LongValue) value).value());
            if (type == PrimitiveType.BYTE && value instanceof ByteValue) return digits(((ByteValue) value).value());
            if (type == PrimitiveType.BOOL && value instanceof BoolValue) return ((BoolValue) value).value() ? 4 : 5;
            return -1;
        }

        /** The length of {@code value} in decimal, with its minus sign. */
        private static int digits(long value) {
            if (value == Long.MIN_VALUE) return 20;
            int length = value < 0 ? 2 : 1;
            for (long rest = Math.abs(value); rest >= 10; rest /= 10) length++;
            return length;
        }
    }
}

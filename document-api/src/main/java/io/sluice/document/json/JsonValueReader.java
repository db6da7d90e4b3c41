package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.BoolValue;
import io.sluice.document.ByteValue;
import io.sluice.document.DataType;
import io.sluice.document.DocumentException;
import io.sluice.document.DocumentId;
import io.sluice.document.DoubleValue;
import io.sluice.document.Field;
import io.sluice.document.FieldValue;
import io.sluice.document.FloatValue;
import io.sluice.document.IntValue;
import io.sluice.document.LongValue;
import io.sluice.document.MapType;
import io.sluice.document.MapValue;
import io.sluice.document.PredicateValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.RawValue;
import io.sluice.document.ReferenceType;
import io.sluice.document.ReferenceValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructType;
import io.sluice.document.StructValue;
import io.sluice.document.TensorType;
import io.sluice.document.UriValue;
import io.sluice.document.WeightedSetType;
import io.sluice.document.WeightedSetValue;
import io.sluice.document.predicate.PredicateParseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Reads one field value in Vespa's document JSON ("put") format from a streaming parser, guided by the field's type.
 * Usable by other readers (e.g. update bodies): position the parser on the value's first token and call
 * {@link #read}; it returns with the parser on the value's last token.
 *
 * <p>Scalars are parsed from the token text, as Vespa does, so {@code "42"} is a valid int. Unknown struct fields
 * throw {@link UnknownFieldException}, or are skipped and reported to the ignored-field sink when lenient.
 */
public final class JsonValueReader {

    private final boolean ignoreUndefinedFields;
    private final Consumer<String> ignoredFields;
    private final boolean stored;
    private boolean unquotedStrings = false;

    /**
     * A reader of client input: predicate values must parse, and are read in Vespa's canonical form.
     *
     * @param ignoreUndefinedFields skip unknown struct fields instead of failing
     * @param ignoredFields receives the dotted path of each skipped field
     */
    public JsonValueReader(boolean ignoreUndefinedFields, Consumer<String> ignoredFields) {
        this(ignoreUndefinedFields, ignoredFields, false);
    }

    /**
     * @param ignoreUndefinedFields skip unknown struct fields instead of failing
     * @param ignoredFields receives the dotted path of each skipped field
     * @param stored whether the JSON is what an engine stored rather than client input: then predicate text that
     *               does not parse is kept as it is, since it may have been stored before predicates were checked
     */
    public JsonValueReader(boolean ignoreUndefinedFields, Consumer<String> ignoredFields, boolean stored) {
        this.ignoreUndefinedFields = ignoreUndefinedFields;
        this.ignoredFields = ignoredFields;
        this.stored = stored;
    }

    /**
     * Reads a value of {@code type} starting at the parser's current token.
     *
     * @throws DocumentJsonException if the JSON does not describe a value of the type
     * @throws IOException if the parser fails (malformed JSON)
     */
    public FieldValue read(JsonParser parser, DataType type) throws IOException {
        return read(parser, type, "");
    }

    FieldValue read(JsonParser parser, DataType type, String path) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) throw new DocumentJsonException("Illegal null value");
        if (type instanceof PrimitiveType) return primitive(parser, (PrimitiveType) type);
        if (type instanceof ArrayType) return array(parser, (ArrayType) type, path);
        if (type instanceof WeightedSetType) return weightedSet(parser, (WeightedSetType) type);
        if (type instanceof MapType) return map(parser, (MapType) type, path);
        if (type instanceof StructType) return struct(parser, (StructType) type, path);
        if (type instanceof TensorType) return TensorJsonReader.read(parser, (TensorType) type);
        if (type instanceof ReferenceType) return reference(parser, (ReferenceType) type);
        throw new IllegalStateException("Unhandled type " + type);
    }

    private FieldValue primitive(JsonParser parser, PrimitiveType type) throws IOException {
        if (type == PrimitiveType.POSITION) return PositionJson.read(parser);
        JsonToken token = parser.currentToken();
        if (!token.isScalarValue())
            throw new DocumentJsonException("Expected a value of type " + type + ", got " + describe(parser));
        return scalar(parser, token, parser.getText(), type);
    }

    /** A map or weighted set key: the current field name, read as {@code type}. */
    private FieldValue key(JsonParser parser, PrimitiveType type) throws IOException {
        String text = parser.currentName();
        if (type == PrimitiveType.POSITION) return PositionJson.parseText(text);
        return scalar(parser, JsonToken.VALUE_STRING, text, type);
    }

    private FieldValue scalar(JsonParser parser, JsonToken token, String text, PrimitiveType type)
            throws IOException {
        switch (type) {
            case STRING:
                if (token != JsonToken.VALUE_STRING) unquotedStrings = true;
                return new StringValue(text);
            case URI: return new UriValue(text);
            case PREDICATE: return predicate(text);
            case RAW:
                try {
                    return RawValue.fromBase64(text);
                } catch (DocumentException e) {
                    throw new DocumentJsonException(e.getMessage(), e);
                }
            case BOOL:
                if (token == JsonToken.VALUE_TRUE || "true".equalsIgnoreCase(text)) return BoolValue.TRUE;
                if (token == JsonToken.VALUE_FALSE || "false".equalsIgnoreCase(text)) return BoolValue.FALSE;
                throw new DocumentJsonException("Expected a value of type bool, got '" + text + "'");
            case INT:
                if (token == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT)
                    return new IntValue(parser.getIntValue());
                return new IntValue((int) parseInteger(text, Integer.MIN_VALUE, Integer.MAX_VALUE, type));
            case LONG:
                if (token == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER)
                    return new LongValue(parser.getLongValue());
                return new LongValue(parseInteger(text, Long.MIN_VALUE, Long.MAX_VALUE, type));
            case BYTE:
                return new ByteValue((byte) parseInteger(text, Byte.MIN_VALUE, Byte.MAX_VALUE, type));
            case FLOAT:
                return new FloatValue((float) parseFloating(text, type));
            case DOUBLE:
                return new DoubleValue(parseFloating(text, type));
            case FLOAT16:
                return FloatValue.float16(parseFloating(text, type));
            default:
                throw new IllegalStateException("Unhandled type " + type);
        }
    }

    /** Whether a string value was read from a number or boolean ({@code 42} for {@code "42"}) since this was made. */
    boolean readUnquotedStrings() {
        return unquotedStrings;
    }

    /** Client input must parse, and is kept in canonical form; stored text is canonical, or kept as it is. */
    private PredicateValue predicate(String text) {
        try {
            return PredicateValue.parse(text);
        } catch (PredicateParseException e) {
            if (stored) return new PredicateValue(text);
            throw new DocumentJsonException("Invalid predicate '" + text + "': " + e.getMessage(), e);
        }
    }

    private static long parseInteger(String text, long min, long max, PrimitiveType type) {
        try {
            long value = Long.parseLong(text);
            if (value >= min && value <= max) return value;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new DocumentJsonException("Expected a value of type " + type + ", got '" + text + "'");
    }

    private static double parseFloating(String text, PrimitiveType type) {
        try {
            return type == PrimitiveType.DOUBLE ? Double.parseDouble(text) : Float.parseFloat(text);
        } catch (NumberFormatException e) {
            throw new DocumentJsonException("Expected a value of type " + type + ", got '" + text + "'");
        }
    }

    private FieldValue array(JsonParser parser, ArrayType type, String path) throws IOException {
        expect(parser, JsonToken.START_ARRAY, type);
        List<FieldValue> elements = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() == JsonToken.VALUE_NULL)
                throw new DocumentJsonException("Illegal null value for array entry");
            elements.add(read(parser, type.elementType(), path));
        }
        return new ArrayValue(elements);
    }

    private FieldValue weightedSet(JsonParser parser, WeightedSetType type) throws IOException {
        expect(parser, JsonToken.START_OBJECT, type);
        Map<FieldValue, Integer> weights = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            FieldValue key = key(parser, (PrimitiveType) type.keyType());
            JsonToken weight = parser.nextToken();
            if (!weight.isScalarValue() || weight == JsonToken.VALUE_NULL)
                throw new DocumentJsonException("Expected an int weight for key '" + key + "', got " + describe(parser));
            weights.put(key, (int) parseInteger(parser.getText(), Integer.MIN_VALUE, Integer.MAX_VALUE,
                                                PrimitiveType.INT));
        }
        return new WeightedSetValue(weights);
    }

    private FieldValue map(JsonParser parser, MapType type, String path) throws IOException {
        Map<FieldValue, FieldValue> entries = new LinkedHashMap<>();
        if (parser.currentToken() == JsonToken.START_ARRAY) {
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                expect(parser, JsonToken.START_OBJECT, type);
                FieldValue key = null;
                FieldValue value = null;
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    if (name.equals("key")) key = mapKey(parser, type);
                    else if (name.equals("value")) value = mapValue(parser, type, path);
                    else throw new DocumentJsonException("Expected 'key' or 'value' in map entry, got '" + name + "'");
                }
                if (key == null || value == null)
                    throw new DocumentJsonException("A map entry needs both 'key' and 'value'");
                entries.put(key, value);
            }
            return new MapValue(entries);
        }
        expect(parser, JsonToken.START_OBJECT, type);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            FieldValue key = key(parser, (PrimitiveType) type.keyType());
            parser.nextToken();
            entries.put(key, mapValue(parser, type, path));
        }
        return new MapValue(entries);
    }

    private FieldValue mapKey(JsonParser parser, MapType type) throws IOException {
        if (parser.currentToken() == JsonToken.VALUE_NULL) throw new DocumentJsonException("Illegal null map key");
        return primitive(parser, (PrimitiveType) type.keyType());
    }

    private FieldValue mapValue(JsonParser parser, MapType type, String path) throws IOException {
        if (parser.currentToken() == JsonToken.VALUE_NULL)
            throw new DocumentJsonException("Illegal null value for map entry");
        return read(parser, type.valueType(), path);
    }

    private FieldValue struct(JsonParser parser, StructType type, String path) throws IOException {
        expect(parser, JsonToken.START_OBJECT, type);
        Map<String, FieldValue> fields = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            Optional<Field> field = type.field(name);
            JsonToken value = parser.nextToken();
            if (field.isEmpty()) {
                if (!ignoreUndefinedFields) throw unknownField(name, type.name(), type.fields());
                ignoredFields.accept(path.isEmpty() ? name : path + "." + name);
                parser.skipChildren();
                continue;
            }
            if (isUnset(parser, field.get().type())) continue;
            fields.put(name, read(parser, field.get().type(), path.isEmpty() ? name : path + "." + name));
        }
        return new StructValue(fields);
    }

    /** Whether the current value means "not set" for a field of this type: null, or an empty reference. */
    static boolean isUnset(JsonParser parser, DataType type) throws IOException {
        JsonToken token = parser.currentToken();
        return token == JsonToken.VALUE_NULL
               || (type instanceof ReferenceType && token == JsonToken.VALUE_STRING && parser.getTextLength() == 0);
    }

    static UnknownFieldException unknownField(String name, String typeName, Collection<Field> fields) {
        return new UnknownFieldException("No field '" + name + "' in the structure of type '" + typeName
                                         + "', which has the fields: "
                                         + fields.stream().map(Field::name).collect(Collectors.toList()), name);
    }

    private static FieldValue reference(JsonParser parser, ReferenceType type) throws IOException {
        if (parser.currentToken() != JsonToken.VALUE_STRING)
            throw new DocumentJsonException("Expected a document id string for " + type + ", got " + describe(parser));
        String text = parser.getText();
        DocumentId id;
        try {
            id = DocumentId.of(text);
        } catch (DocumentException e) {
            throw new DocumentJsonException("Invalid document id '" + text + "': " + e.getMessage(), e);
        }
        if (!id.documentType().equals(type.targetType()))
            throw new DocumentJsonException("Document id '" + text + "' is not of type '" + type.targetType() + "'");
        return new ReferenceValue(id);
    }

    private static void expect(JsonParser parser, JsonToken expected, DataType type) throws IOException {
        if (parser.currentToken() != expected)
            throw new DocumentJsonException("Expected " + (expected == JsonToken.START_ARRAY ? "an array" : "an object")
                                            + " for " + type.typeName() + ", got " + describe(parser));
    }

    /** The current token for error messages: its text for scalars, else its kind. */
    static String describe(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == null) return "end of input";
        if (token == JsonToken.VALUE_STRING) return "'" + parser.getText() + "'";
        if (token.isScalarValue()) return parser.getText();
        return token.toString();
    }
}

package io.sluice.document;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path into a field's value, as used by field-path updates: a top-level field followed by steps into struct fields
 * ({@code .name}), map or weighted-set keys ({@code {key}} or {@code {"quoted key"}}) and array indexes
 * ({@code [3]}), e.g. {@code a{k1}{k2}[4].title}. Parsed against a document type, so every step is typed: keys are
 * values of the key type and {@link #resultType()} is the type of what the path reaches (int for a weighted-set
 * key, which reaches the key's weight). Immutable.
 */
public final class FieldPath {

    /** One step below the top-level field. */
    public sealed interface Step permits StructField, Key, Index {
    }

    /** {@code .name}: a field of a struct. */
    public record StructField(String name) implements Step {
        public StructField {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code {key}}: the value of a map key, or the weight of a weighted-set key. */
    public record Key(FieldValue key) implements Step {
        public Key {
            Objects.requireNonNull(key, "key");
        }
    }

    /** {@code [index]}: an array element. */
    public record Index(int index) implements Step {
    }

    private final String text;
    private final Field field;
    private final List<Step> steps;
    private final List<DataType> types;

    private FieldPath(String text, Field field, List<Step> steps, List<DataType> types) {
        this.text = text;
        this.field = field;
        this.steps = List.copyOf(steps);
        this.types = List.copyOf(types);
    }

    /**
     * Parses {@code text} against {@code type}. Throws {@link InvalidUpdateException} naming the path if it is
     * malformed, names a field that does not exist, or steps into a value that has no such step (e.g. an index on a
     * map). Variables ({@code {$x}}) are not supported.
     */
    public static FieldPath parse(DocumentType type, String text) {
        Objects.requireNonNull(text, "text");
        String fieldName = fieldName(text);
        Field field = type.field(fieldName).orElseThrow(() -> new InvalidUpdateException(
                "No field named '" + fieldName + "' in document type '" + type.name() + "'"));
        List<Step> steps = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        types.add(field.type());
        new Parser(text, fieldName.length()).steps(steps, types);
        return new FieldPath(text, field, steps, types);
    }

    /** The name of the top-level field a path text starts with: everything before the first '.', '[' or '{'. */
    public static String fieldName(String text) {
        int end = 0;
        while (end < text.length() && ".[{".indexOf(text.charAt(end)) < 0) end++;
        return text.substring(0, end);
    }

    /** Whether a key of an update's {@code "fields"} object is a field path rather than a field name. */
    public static boolean isFieldPath(String key) {
        return key.indexOf('.') >= 0 || key.indexOf('[') >= 0 || key.indexOf('{') >= 0;
    }

    /** The path as written. */
    public String text() {
        return text;
    }

    /** The top-level field the path starts at. */
    public Field field() {
        return field;
    }

    /** The steps below the top-level field, at least one. */
    public List<Step> steps() {
        return steps;
    }

    /** The type of the value the path reaches. */
    public DataType resultType() {
        return types.get(types.size() - 1);
    }

    /** The type of the value step {@code index} is taken from (0 is the top-level field's type). */
    DataType typeAt(int index) {
        return types.get(index);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldPath && ((FieldPath) o).field.equals(field) && ((FieldPath) o).steps.equals(steps);
    }

    @Override
    public int hashCode() {
        return field.hashCode() * 31 + steps.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }

    private static final class Parser {

        private final String text;
        private int position;

        Parser(String text, int position) {
            this.text = text;
            this.position = position;
        }

        void steps(List<Step> steps, List<DataType> types) {
            if (position == 0) throw fail("it does not start with a field name");
            if (position == text.length()) throw fail("it has no step after the field name");
            while (position < text.length()) {
                DataType current = types.get(types.size() - 1);
                char c = text.charAt(position++);
                if (c == '.') structField(current, steps, types);
                else if (c == '{') key(current, steps, types);
                else if (c == '[') index(current, steps, types);
                else throw fail("unexpected '" + c + "' at position " + (position - 1));
            }
        }

        private void structField(DataType current, List<Step> steps, List<DataType> types) {
            int start = position;
            while (position < text.length() && ".[{}]\"".indexOf(text.charAt(position)) < 0) position++;
            String name = text.substring(start, position);
            if (name.isEmpty()) throw fail("expected a field name at position " + start);
            if (!(current instanceof StructType))
                throw fail("'." + name + "' steps into " + current.typeName() + ", which is not a struct");
            Field field = ((StructType) current).field(name).orElseThrow(() -> fail(
                    "no field named '" + name + "' in struct '" + ((StructType) current).name() + "'"));
            steps.add(new StructField(name));
            types.add(field.type());
        }

        private void key(DataType current, List<Step> steps, List<DataType> types) {
            int open = position - 1;
            String key;
            if (position < text.length() && text.charAt(position) == '"') {
                key = quoted();
            } else {
                int start = position;
                while (position < text.length() && text.charAt(position) != '}') position++;
                key = text.substring(start, position);
                if (key.startsWith("$")) throw fail("variables like '" + key + "' are not supported in updates");
            }
            if (position >= text.length() || text.charAt(position) != '}')
                throw fail("the key opened at position " + open + " is not closed with '}'");
            position++;
            DataType keyType;
            DataType next;
            if (current instanceof MapType) {
                keyType = ((MapType) current).keyType();
                next = ((MapType) current).valueType();
            } else if (current instanceof WeightedSetType) {
                keyType = ((WeightedSetType) current).keyType();
                next = PrimitiveType.INT;
            } else {
                throw fail("'{" + key + "}' steps into " + current.typeName() + ", which is not a map or weighted set");
            }
            steps.add(new Key(keyValue((PrimitiveType) keyType, key)));
            types.add(next);
        }

        private String quoted() {
            int open = position++;
            StringBuilder key = new StringBuilder();
            while (position < text.length()) {
                char c = text.charAt(position++);
                if (c == '"') return key.toString();
                if (c == '\\' && position < text.length()) c = text.charAt(position++);
                key.append(c);
            }
            throw fail("the quoted key opened at position " + open + " is not closed");
        }

        private void index(DataType current, List<Step> steps, List<DataType> types) {
            int start = position;
            while (position < text.length() && text.charAt(position) != ']') position++;
            String digits = text.substring(start, position);
            if (position >= text.length()) throw fail("the index opened at position " + (start - 1) + " is not closed with ']'");
            position++;
            if (digits.startsWith("$")) throw fail("variables like '" + digits + "' are not supported in updates");
            int index = TensorValue.parseIndexOrMinusOne(digits);
            if (index < 0) throw fail("'" + digits + "' is not an array index");
            if (!(current instanceof ArrayType))
                throw fail("'[" + digits + "]' steps into " + current.typeName() + ", which is not an array");
            steps.add(new Index(index));
            types.add(((ArrayType) current).elementType());
        }

        private FieldValue keyValue(PrimitiveType type, String key) {
            try {
                switch (type) {
                    case STRING: return new StringValue(key);
                    case URI: return new UriValue(key);
                    case INT: return new IntValue(Integer.parseInt(key.trim()));
                    case LONG: return new LongValue(Long.parseLong(key.trim()));
                    case BYTE: return new ByteValue(Byte.parseByte(key.trim()));
                    case FLOAT: return new FloatValue(Float.parseFloat(key.trim()));
                    case DOUBLE: return new DoubleValue(Double.parseDouble(key.trim()));
                    case FLOAT16: return FloatValue.float16(Float.parseFloat(key.trim()));
                    case BOOL:
                        if (key.equals("true") || key.equals("false")) return BoolValue.of(key.equals("true"));
                        break;
                    default:
                        break;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw fail("key '" + key + "' is not a valid " + type.typeName());
        }

        private InvalidUpdateException fail(String why) {
            return new InvalidUpdateException("Invalid field path '" + text + "': " + why);
        }
    }
}

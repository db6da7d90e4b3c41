package io.sluice.document;

import java.util.Optional;

/**
 * Types whose values have no type parameters. {@code raw}, {@code uri}, {@code predicate} and {@code position} are
 * here too: their values are single, self-describing values like the numbers and strings.
 */
public enum PrimitiveType implements DataType {

    STRING("string"), INT("int"), LONG("long"), BYTE("byte"), BOOL("bool"), FLOAT("float"), DOUBLE("double"),
    RAW("raw"), URI("uri"), PREDICATE("predicate"), POSITION("position"),
    /** Vespa's half-precision float: values are {@link FloatValue}s rounded to what 16 bits hold. */
    FLOAT16("float16");

    private final String schemaName;

    PrimitiveType(String schemaName) {
        this.schemaName = schemaName;
    }

    @Override
    public String typeName() {
        return schemaName;
    }

    @Override
    public String toString() {
        return schemaName;
    }

    /** The primitive type with this schema name, if any. */
    public static Optional<PrimitiveType> fromSchemaName(String name) {
        for (PrimitiveType type : values())
            if (type.schemaName.equals(name)) return Optional.of(type);
        return Optional.empty();
    }

    /** Whether values of this type are numbers ({@link NumericValue}). */
    public boolean isNumeric() {
        return this == INT || this == LONG || this == BYTE || this == FLOAT || this == DOUBLE || this == FLOAT16;
    }

    @Override
    public boolean accepts(FieldValue value) {
        switch (this) {
            case STRING: return value instanceof StringValue;
            case INT: return value instanceof IntValue;
            case LONG: return value instanceof LongValue;
            case BYTE: return value instanceof ByteValue;
            case BOOL: return value instanceof BoolValue;
            case FLOAT: return value instanceof FloatValue;
            case FLOAT16: return value instanceof FloatValue;
            case DOUBLE: return value instanceof DoubleValue;
            case RAW: return value instanceof RawValue;
            case URI: return value instanceof UriValue;
            case PREDICATE: return value instanceof PredicateValue;
            case POSITION: return value instanceof PositionValue;
            default: throw new AssertionError(this);
        }
    }
}

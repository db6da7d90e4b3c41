package io.sluice.document;

/** A number: int, long, byte, float or double. */
public sealed interface NumericValue extends FieldValue permits IntValue, LongValue, ByteValue, FloatValue, DoubleValue {

    double doubleValue();

    long longValue();

    /** This number converted to the given numeric primitive type (Java narrowing rules). */
    static NumericValue of(PrimitiveType type, double value) {
        switch (type) {
            case INT: return new IntValue((int) value);
            case LONG: return new LongValue((long) value);
            case BYTE: return new ByteValue((byte) value);
            case FLOAT: return new FloatValue((float) value);
            case DOUBLE: return new DoubleValue(value);
            case FLOAT16: return FloatValue.float16(value);
            default: throw new InvalidDocumentException("Type " + type + " is not numeric");
        }
    }
}

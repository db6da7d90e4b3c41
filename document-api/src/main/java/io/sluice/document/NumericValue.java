package io.sluice.document;

/** A number: int, long, byte, float or double. */
public sealed interface NumericValue extends FieldValue permits IntValue, LongValue, ByteValue, FloatValue, DoubleValue {

    double doubleValue();

    long longValue();

    /**
     * The result of an arithmetic update as a value of {@code type}, refusing one the type cannot hold instead of
     * saturating or wrapping it (an int field at 2147483647 incremented by 1 is an error, not 2147483647).
     *
     * @throws UpdateOutOfRangeException naming the result and the type, if it is out of range or not a number
     */
    static NumericValue arithmeticResult(PrimitiveType type, double value) {
        double low, high; // the result must be in [low, high) once truncated toward zero
        switch (type) {
            case INT: low = -0x1p31; high = 0x1p31; break;
            case LONG: low = -0x1p63; high = 0x1p63; break;
            case BYTE: low = -0x1p7; high = 0x1p7; break;
            case FLOAT: low = -Float.MAX_VALUE; high = Math.nextUp((double) Float.MAX_VALUE); break;
            case FLOAT16: low = -65504; high = Math.nextUp(65504.0); break;
            default: low = -Double.MAX_VALUE; high = Double.POSITIVE_INFINITY; break;
        }
        boolean integral = type == PrimitiveType.INT || type == PrimitiveType.LONG || type == PrimitiveType.BYTE;
        double checked = integral ? (value < 0 ? Math.ceil(value) : Math.floor(value)) : value;
        if (Double.isNaN(value) || checked < low || checked >= high || (!integral && Double.isInfinite(value))) {
            throw new UpdateOutOfRangeException("Arithmetic update result " + value + " is out of range for a field of type "
                                               + type);
        }
        return of(type, value);
    }

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

package io.sluice.document;

/** A {@code byte} field value. */
public record ByteValue(byte value) implements NumericValue {

    @Override
    public double doubleValue() {
        return value;
    }

    @Override
    public long longValue() {
        return (long) value;
    }

    @Override
    public String toString() {
        return String.valueOf(value);
    }
}

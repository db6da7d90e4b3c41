package io.sluice.document;

/** A {@code float} field value. */
public record FloatValue(float value) implements NumericValue {

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

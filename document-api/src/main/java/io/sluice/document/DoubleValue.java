package io.sluice.document;

/** A {@code double} field value. */
public record DoubleValue(double value) implements NumericValue {

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

package io.sluice.document;

/** A {@code int} field value. */
public record IntValue(int value) implements NumericValue {

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

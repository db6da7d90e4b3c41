package io.sluice.document;

/** A {@code long} field value. */
public record LongValue(long value) implements NumericValue {

    @Override
    public double doubleValue() {
        return value;
    }

    @Override
    public long longValue() {
        return value;
    }

    @Override
    public String toString() {
        return String.valueOf(value);
    }
}

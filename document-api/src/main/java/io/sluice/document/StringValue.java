package io.sluice.document;

import java.util.Objects;

/** A {@code string} field value; the empty string counts as not set. */
public record StringValue(String value) implements FieldValue {

    public StringValue {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public boolean isEmpty() {
        return value.isEmpty();
    }

    @Override
    public String toString() {
        return value;
    }
}

package io.sluice.document;

import java.util.Objects;

/** A {@code uri} field value; the empty string counts as not set. */
public record UriValue(String value) implements FieldValue {

    public UriValue {
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

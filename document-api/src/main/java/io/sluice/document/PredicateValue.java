package io.sluice.document;

import java.util.Objects;

/** A {@code predicate} field value; the empty string counts as not set. */
public record PredicateValue(String value) implements FieldValue {

    public PredicateValue {
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

package io.sluice.document;

import java.util.Objects;

/** A {@code reference<T>} value: the id of the referenced document. */
public record ReferenceValue(DocumentId id) implements FieldValue {

    public ReferenceValue {
        Objects.requireNonNull(id, "id");
    }

    @Override
    public String toString() {
        return id.toString();
    }
}

package io.sluice.document;

import java.util.Objects;

/** {@code reference<T>}: the id of a document of type T (parent/child). */
public record ReferenceType(String targetType) implements DataType {

    public ReferenceType {
        Objects.requireNonNull(targetType, "targetType");
    }

    @Override
    public String typeName() {
        return "reference<" + targetType + ">";
    }

    @Override
    public boolean accepts(FieldValue value) {
        return value instanceof ReferenceValue
               && ((ReferenceValue) value).id().documentType().equals(targetType);
    }

    @Override
    public String toString() {
        return typeName();
    }
}

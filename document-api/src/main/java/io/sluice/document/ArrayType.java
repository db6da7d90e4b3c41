package io.sluice.document;

import java.util.Objects;

/** {@code array<T>}: an ordered list of values of one type. */
public record ArrayType(DataType elementType) implements DataType {

    public ArrayType {
        Objects.requireNonNull(elementType, "elementType");
    }

    @Override
    public String typeName() {
        return "array<" + elementType.typeName() + ">";
    }

    @Override
    public boolean accepts(FieldValue value) {
        if (!(value instanceof ArrayValue)) return false;
        for (FieldValue element : ((ArrayValue) value).elements())
            if (!elementType.accepts(element)) return false;
        return true;
    }

    @Override
    public String toString() {
        return typeName();
    }
}

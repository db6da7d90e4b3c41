package io.sluice.document;

import java.util.Objects;

/** A named, typed field of a document type or struct. */
public record Field(String name, DataType type) {

    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    @Override
    public String toString() {
        return "field '" + name + "' of type " + type.typeName();
    }
}

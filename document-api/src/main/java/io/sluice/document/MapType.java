package io.sluice.document;

import java.util.Map;
import java.util.Objects;

/** {@code map<K,V>}: primitive keys mapped to values of one type. */
public record MapType(DataType keyType, DataType valueType) implements DataType {

    public MapType {
        Objects.requireNonNull(keyType, "keyType");
        Objects.requireNonNull(valueType, "valueType");
        if (!(keyType instanceof PrimitiveType))
            throw new InvalidDocumentException("A map key must be a primitive type, not " + keyType.typeName());
    }

    @Override
    public String typeName() {
        return "map<" + keyType.typeName() + "," + valueType.typeName() + ">";
    }

    @Override
    public boolean accepts(FieldValue value) {
        if (!(value instanceof MapValue)) return false;
        for (Map.Entry<FieldValue, FieldValue> entry : ((MapValue) value).entries().entrySet())
            if (!keyType.accepts(entry.getKey()) || !valueType.accepts(entry.getValue())) return false;
        return true;
    }

    @Override
    public String toString() {
        return typeName();
    }
}

package io.sluice.document;

import java.util.Objects;

/**
 * {@code weightedset<T>}: a set of primitive keys, each with an int weight. The two flags are the schema's
 * {@code create-if-nonexistent} and {@code remove-if-zero}, which only matter to updates.
 */
public record WeightedSetType(DataType keyType, boolean createIfNonExistent, boolean removeIfZero) implements DataType {

    public WeightedSetType {
        Objects.requireNonNull(keyType, "keyType");
        if (!(keyType instanceof PrimitiveType))
            throw new InvalidDocumentException("A weighted set key must be a primitive type, not " + keyType.typeName());
    }

    /** A weighted set without the update flags. */
    public static WeightedSetType of(DataType keyType) {
        return new WeightedSetType(keyType, false, false);
    }

    @Override
    public String typeName() {
        return "weightedset<" + keyType.typeName() + ">";
    }

    @Override
    public boolean accepts(FieldValue value) {
        if (!(value instanceof WeightedSetValue)) return false;
        for (FieldValue key : ((WeightedSetValue) value).weights().keySet())
            if (!keyType.accepts(key)) return false;
        return true;
    }

    @Override
    public String toString() {
        return typeName();
    }
}

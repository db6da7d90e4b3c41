package io.sluice.document;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A struct value: field name to value, in insertion order. Which names are valid is up to the {@link StructType};
 * {@link StructType#accepts} checks it. A struct without fields counts as not set.
 */
public record StructValue(Map<String, FieldValue> fields) implements FieldValue {

    public static final StructValue EMPTY = new StructValue(Map.of());

    /** Copies the map, keeping its order and dropping empty values. */
    public StructValue {
        Map<String, FieldValue> copy = new LinkedHashMap<>();
        for (Map.Entry<String, FieldValue> entry : fields.entrySet())
            if (!entry.getValue().isEmpty()) copy.put(entry.getKey(), entry.getValue());
        fields = Collections.unmodifiableMap(copy);
    }

    /** The value of the named field, or null if not set. */
    public FieldValue get(String name) {
        return fields.get(name);
    }

    /** This struct with the field set (or removed when {@code value} is empty). */
    public StructValue with(String name, FieldValue value) {
        Map<String, FieldValue> result = new LinkedHashMap<>(fields);
        result.put(name, value);
        return new StructValue(result);
    }

    /** This struct without the named field. */
    public StructValue without(String name) {
        if (!fields.containsKey(name)) return this;
        Map<String, FieldValue> result = new LinkedHashMap<>(fields);
        result.remove(name);
        return new StructValue(result);
    }

    @Override
    public boolean isEmpty() {
        return fields.isEmpty();
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}

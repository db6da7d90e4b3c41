package io.sluice.document;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A {@code map<K,V>} value in insertion order; empty counts as not set. */
public record MapValue(Map<FieldValue, FieldValue> entries) implements FieldValue {

    public static final MapValue EMPTY = new MapValue(Map.of());

    /** Copies the map, keeping its iteration order. */
    public MapValue {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    /** The value for {@code key}, or null if absent. */
    public FieldValue get(FieldValue key) {
        return entries.get(key);
    }

    /** This map with {@code key} set to {@code value}. */
    public MapValue with(FieldValue key, FieldValue value) {
        Map<FieldValue, FieldValue> result = new LinkedHashMap<>(entries);
        result.put(key, value);
        return new MapValue(result);
    }

    /** This map without {@code key}. */
    public MapValue without(FieldValue key) {
        if (!entries.containsKey(key)) return this;
        Map<FieldValue, FieldValue> result = new LinkedHashMap<>(entries);
        result.remove(key);
        return new MapValue(result);
    }

    @Override
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}

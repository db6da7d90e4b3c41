package io.sluice.document;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A {@code weightedset<T>} value: keys in insertion order with int weights; empty counts as not set. */
public record WeightedSetValue(Map<FieldValue, Integer> weights) implements FieldValue {

    public static final WeightedSetValue EMPTY = new WeightedSetValue(Map.of());

    /** Copies the map, keeping its iteration order. */
    public WeightedSetValue {
        weights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
    }

    /** The weight of {@code key}, or null if absent. */
    public Integer weight(FieldValue key) {
        return weights.get(key);
    }

    /** This set with {@code key} added or its weight replaced. */
    public WeightedSetValue with(FieldValue key, int weight) {
        Map<FieldValue, Integer> result = new LinkedHashMap<>(weights);
        result.put(key, weight);
        return new WeightedSetValue(result);
    }

    /** This set without {@code key}. */
    public WeightedSetValue without(FieldValue key) {
        if (!weights.containsKey(key)) return this;
        Map<FieldValue, Integer> result = new LinkedHashMap<>(weights);
        result.remove(key);
        return new WeightedSetValue(result);
    }

    @Override
    public boolean isEmpty() {
        return weights.isEmpty();
    }

    @Override
    public String toString() {
        return weights.toString();
    }
}

package io.sluice.container;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One metric value set as {@code /state/v1/metrics} reports it: a name, its dimensions, and named values
 * ({@code count} and {@code rate} for counters; {@code average}, {@code sum}, {@code count}, {@code max}, {@code min},
 * percentiles ... for gauges and latencies).
 */
public record Metric(String name, Map<String, String> dimensions, Map<String, Number> values) {

    public Metric {
        Objects.requireNonNull(name, "name");
        dimensions = Map.copyOf(dimensions);
        values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** Whether this is a counter: a total since start, {@code {"count": n}} only. */
    public boolean isCounter() {
        return values.size() == 1 && values.containsKey("count");
    }

    /** A counter: {@code {"count": n}}. */
    public static Metric counter(String name, Map<String, String> dimensions, long count) {
        return new Metric(name, dimensions, Map.of("count", count));
    }

    /** A gauge read now: {@code last}, {@code max}, {@code min}, {@code average}, {@code sum}, {@code count} of one sample. */
    public static Metric gauge(String name, Map<String, String> dimensions, double value) {
        var values = new LinkedHashMap<String, Number>();
        values.put("average", value);
        values.put("sum", value);
        values.put("count", 1);
        values.put("last", value);
        values.put("max", value);
        values.put("min", value);
        return new Metric(name, dimensions, values);
    }

}

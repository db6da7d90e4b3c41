package io.sluice.http;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * One operation of the crash test's workload on a {@code music} document, and what it does to the document's fields.
 * Operations follow from (seed, round, document, index) alone, so a failure reproduces with the same seed.
 *
 * @param kind   put, update or remove
 * @param fields the whole document for a put, the assigned fields for an update, none for a remove
 * @param create whether an update creates a missing document
 */
record CrashOperation(Kind kind, Map<String, Object> fields, boolean create) {

    enum Kind { PUT, UPDATE, REMOVE }

    CrashOperation {
        fields = Map.copyOf(fields);
    }

    /** The {@code index}th operation on document {@code document} in round {@code round}: the first one is a put. */
    static CrashOperation of(long seed, int round, int document, int index) {
        Random random = new Random(((seed * 1_000_003L + round) * 1_000_003L + document) * 1_000_003L + index);
        int choice = index == 0 ? 0 : random.nextInt(20);
        if (choice < 9) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("title", text(random, 20 + random.nextInt(400)));
            fields.put("artist", text(random, 5 + random.nextInt(20)));
            fields.put("year", (long) (1950 + random.nextInt(75)));
            fields.put("tags", List.of(text(random, 3 + random.nextInt(8)), text(random, 3 + random.nextInt(8))));
            return new CrashOperation(Kind.PUT, fields, false);
        }
        if (choice < 16) {
            Map<String, Object> fields = new LinkedHashMap<>();
            if (random.nextBoolean())
                fields.put("title", text(random, 20 + random.nextInt(400)));
            fields.put("year", (long) (1950 + random.nextInt(75)));
            return new CrashOperation(Kind.UPDATE, fields, random.nextBoolean());
        }
        return new CrashOperation(Kind.REMOVE, Map.of(), false);
    }

    /** Lower-case words: nothing to escape in JSON, yet not all alike, so compression cannot hide a wrong byte. */
    private static String text(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length)
            text.append(random.nextInt(6) == 0 && text.length() > 0 ? ' ' : (char) ('a' + random.nextInt(26)));
        return text.toString().strip();
    }

    /** The request body of a put or update. */
    String json() {
        StringBuilder json = new StringBuilder("{\"fields\":{");
        String separator = "";
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            json.append(separator).append('"').append(field.getKey()).append("\":");
            if (kind == Kind.UPDATE)
                json.append("{\"assign\":").append(value(field.getValue())).append('}');
            else
                json.append(value(field.getValue()));
            separator = ",";
        }
        return json.append("}}").toString();
    }

    private static String value(Object value) {
        if (value instanceof String)
            return "\"" + value + "\"";
        if (value instanceof List)
            return ((List<?>) value).stream().map(CrashOperation::value).reduce((a, b) -> a + "," + b)
                                    .map(items -> "[" + items + "]").orElse("[]");
        return String.valueOf(value);
    }

    /** The document's fields after this operation, given those before it (empty: no document). */
    Optional<Map<String, Object>> applyTo(Optional<Map<String, Object>> document) {
        switch (kind) {
            case PUT:
                return Optional.of(fields);
            case REMOVE:
                return Optional.empty();
            default:
                if (document.isEmpty())
                    return create ? Optional.of(fields) : Optional.empty();
                Map<String, Object> updated = new LinkedHashMap<>(document.get());
                updated.putAll(fields);
                return Optional.of(Map.copyOf(updated));
        }
    }

    @Override
    public String toString() {
        return kind + (create ? " (create)" : "") + " " + fields.keySet();
    }

}

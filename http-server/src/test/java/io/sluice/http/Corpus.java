package io.sluice.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A generated feed of {@code music} documents with the result each operation must get and the corpus it must leave:
 * puts, updates (assign, add, increment), removes, test-and-set conditions that hold and that do not (results
 * {@code success} and {@code conditionNotMet}), updates with {@code create}, operations on absent documents, and ids
 * with slashes, spaces, reserved URL characters, non-ASCII letters, {@code n=} and {@code g=}. Values are JSON-shaped
 * Java objects (maps, lists, strings, longs) so they compare structurally with {@link io.sluice.container.JsonTree}.
 */
final class Corpus {

    static final String CLUSTER = "music";

    static final String SCHEMA = "schema music {\n"
                                 + "  document music {\n"
                                 + "    field artist type string { indexing: summary }\n"
                                 + "    field title type string { indexing: summary }\n"
                                 + "    field year type int { indexing: summary | attribute }\n"
                                 + "    field duration type long { indexing: summary | attribute }\n"
                                 + "    field tags type array<string> { indexing: summary }\n"
                                 + "    field popularity type weightedset<string> { indexing: summary }\n"
                                 + "    field links type map<string, string> { indexing: summary }\n"
                                 + "  }\n"
                                 + "}\n";

    static final String SUCCESS = "success";
    static final String CONDITION_NOT_MET = "conditionNotMet";

    private static final JsonFactory json = new JsonFactory();

    /**
     * One operation as a feed line has it, and the result it must get.
     *
     * @param kind     {@code put}, {@code update} or {@code remove}
     * @param fields   field values for a put, field operations ({@code {"f":{"assign":…}}}) for an update, empty for a remove
     * @param expected {@link #SUCCESS} or {@link #CONDITION_NOT_MET}, as the feed clients name results
     */
    record Operation(String kind, String id, Optional<String> condition, boolean create, Map<String, Object> fields,
                     String expected) {

        /** The request body of a put or update: {@code {"fields":…}}. */
        String body() {
            return render(Map.of("fields", fields));
        }

        /** The operation as one line of a JSONL feed. */
        String jsonl() {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put(kind, id);
            condition.ifPresent(value -> line.put("condition", value));
            if (create)
                line.put("create", true);
            if ( ! kind.equals("remove"))
                line.put("fields", fields);
            return render(line);
        }

    }

    private final List<Operation> operations = new ArrayList<>();
    private final Map<String, Map<String, Object>> documents = new LinkedHashMap<>();

    private Corpus() { }

    /** A feed putting {@code count} documents, then touching each in one of ten ways, plus operations on absent ids. */
    static Corpus of(int count) {
        Corpus corpus = new Corpus();
        for (int i = 0; i < count; i++)
            corpus.document(i);
        for (int i = 0; i < Math.max(1, count / 50); i++)
            corpus.absent(i);
        return corpus;
    }

    /** The operations, in feed order. Those on one id must be applied in this order; others may interleave. */
    List<Operation> operations() {
        return List.copyOf(operations);
    }

    /** The results the operations must get, in feed order. */
    List<String> results() {
        return operations.stream().map(Operation::expected).toList();
    }

    /** The results the operations on each id must get, in feed order. */
    Map<String, List<String>> resultsById() {
        Map<String, List<String>> results = new LinkedHashMap<>();
        for (Operation operation : operations)
            results.computeIfAbsent(operation.id(), __ -> new ArrayList<>()).add(operation.expected());
        return results;
    }

    /** The fields of every document that must exist after the feed, by id. */
    Map<String, Map<String, Object>> documents() {
        return Map.copyOf(documents);
    }

    /** The whole feed as JSONL. */
    String jsonl() {
        StringBuilder feed = new StringBuilder();
        for (Operation operation : operations)
            feed.append(operation.jsonl()).append('\n');
        return feed.toString();
    }

    /** The id of document {@code i}: plain, with characters that need escaping in a path, with n=, with g=. */
    static String id(int i) {
        switch (i % 5) {
            case 0: return "id:ns:music::doc-" + i;
            case 1: return "id:ns:music::a/b c+d?e#f%g&h=ü/" + i;
            case 2: return "id:ns:music:n=" + (i % 7) + ":" + i;
            case 3: return "id:ns:music:g=group " + (i % 5) + "/ø:" + i;
            default: return "id:ns:music::n=" + i + "/g=x:" + i;
        }
    }

    private static Map<String, Object> fields(int i) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("artist", "artist \"" + i + "\" ü\t");
        fields.put("title", "title " + i);
        fields.put("year", (long) i);
        fields.put("duration", i * 1_000_000_000L);
        fields.put("tags", List.of("t" + i % 3, "all"));
        fields.put("popularity", Map.of("NO", (long) (i % 100), "SE", 1L));
        fields.put("links", Map.of("home", "https://example.com/" + i));
        return fields;
    }

    private void document(int i) {
        String id = id(i);
        String holds = "music.year == " + i;
        Optional<String> never = Optional.of("music.year < 0");
        Map<String, Object> state = fields(i);
        add("put", id, Optional.empty(), false, fields(i), SUCCESS);
        switch (i % 10) {
            case 0:
                add("update", id, Optional.empty(), false, Map.of("title", Map.of("assign", "retitled " + i)), SUCCESS);
                state.put("title", "retitled " + i);
                break;
            case 1:
                add("update", id, Optional.of(holds), false, Map.of("artist", Map.of("assign", "conditional " + i)), SUCCESS);
                state.put("artist", "conditional " + i);
                break;
            case 2:
                add("update", id, never, false, Map.of("artist", Map.of("assign", "never")), CONDITION_NOT_MET);
                break;
            case 3:
                add("remove", id, never, false, Map.of(), CONDITION_NOT_MET);
                break;
            case 4:
                add("remove", id, Optional.of(holds), false, Map.of(), SUCCESS);
                state = null;
                break;
            case 5:
                add("remove", id, Optional.empty(), false, Map.of(), SUCCESS);
                state = null;
                break;
            case 6:
                add("put", id, never, false, Map.of("artist", "never"), CONDITION_NOT_MET);
                break;
            case 7:
                state = new LinkedHashMap<>(Map.of("artist", "replaced " + i, "year", (long) i));
                add("put", id, Optional.of(holds), false, state, SUCCESS);
                break;
            case 8:
                add("update", id, Optional.empty(), false,
                    Map.of("tags", Map.of("add", List.of("extra")), "year", Map.of("increment", 1L)), SUCCESS);
                state.put("tags", List.of("t" + i % 3, "all", "extra"));
                state.put("year", i + 1L);
                break;
            default:
                add("update", id, Optional.empty(), false, Map.of("popularity", Map.of("add", Map.of("DK", 5L))), SUCCESS);
                state.put("popularity", Map.of("NO", (long) (i % 100), "SE", 1L, "DK", 5L));
        }
        if (state != null)
            documents.put(id, state);
    }

    /** Operations on ids never put: only an update with {@code create} makes a document. */
    private void absent(int i) {
        Map<String, Object> assign = Map.of("artist", Map.of("assign", "created " + i), "year", Map.of("assign", 1L));
        Optional<String> condition = Optional.of("music.year == 1");
        add("update", "id:ns:music::absent-update-" + i, Optional.empty(), false, assign, SUCCESS);
        add("update", "id:ns:music::absent-conditional-" + i, condition, false, assign, CONDITION_NOT_MET);
        add("remove", "id:ns:music::absent-remove-" + i, Optional.empty(), false, Map.of(), SUCCESS);
        add("remove", "id:ns:music::absent-conditional-remove-" + i, condition, false, Map.of(), CONDITION_NOT_MET);
        String created = "id:ns:music:g=absent:created-" + i;
        add("update", created, condition, true, assign, SUCCESS);
        documents.put(created, Map.of("artist", "created " + i, "year", 1L));
    }

    private void add(String kind, String id, Optional<String> condition, boolean create, Map<String, Object> fields,
                     String expected) {
        operations.add(new Operation(kind, id, condition, create, fields, expected));
    }

    /** JSON text of a value made of maps, lists, strings, longs and booleans. */
    static String render(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = json.createGenerator(out)) {
            write(generator, value);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator generator, Object value) throws IOException {
        if (value instanceof Map) {
            generator.writeStartObject();
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                generator.writeFieldName((String) entry.getKey());
                write(generator, entry.getValue());
            }
            generator.writeEndObject();
        }
        else if (value instanceof List) {
            generator.writeStartArray();
            for (Object element : (List<?>) value)
                write(generator, element);
            generator.writeEndArray();
        }
        else if (value instanceof String)
            generator.writeString((String) value);
        else if (value instanceof Long)
            generator.writeNumber((Long) value);
        else if (value instanceof Boolean)
            generator.writeBoolean((Boolean) value);
        else
            throw new IllegalArgumentException("Cannot render " + value + " as JSON");
    }

}

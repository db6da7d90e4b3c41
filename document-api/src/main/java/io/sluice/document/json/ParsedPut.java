package io.sluice.document.json;

import io.sluice.document.Document;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A put body read from JSON: the document, the body's condition and create flag, fields that were ignored, and the
 * body's fields object when it is byte for byte what {@link DocumentJsonWriter} writes for the document.
 */
public final class ParsedPut {

    private final Document document;
    private final FieldsJson fieldsJson;
    private final String condition;
    private final Boolean create;
    private final List<String> ignoredFields;

    ParsedPut(Document document, FieldsJson fieldsJson, String condition, Boolean create, List<String> ignoredFields) {
        this.document = Objects.requireNonNull(document, "document");
        this.fieldsJson = fieldsJson;
        this.condition = condition;
        this.create = create;
        this.ignoredFields = List.copyOf(ignoredFields);
    }

    public Document document() {
        return document;
    }

    /**
     * The body's fields object, if it is exactly what {@link DocumentJsonWriter#writeFields} writes for
     * {@link #document()} (so an engine may store these bytes instead of writing the document again): no whitespace,
     * the type's field order, and only ASCII strings without escapes, integers, booleans, floating-point numbers as
     * {@link Double#toString(double)} and {@link Float#toString(float)} write them, and arrays of strings, integers
     * and booleans. A view of the body read; empty for any other body, and always from the {@code stored} reader.
     */
    public Optional<FieldsJson> fieldsJson() {
        return Optional.ofNullable(fieldsJson);
    }

    /** The body's {@code "condition"}, if given as a string. */
    public Optional<String> condition() {
        return Optional.ofNullable(condition);
    }

    /** The body's {@code "create"} flag, if given. */
    public Optional<Boolean> create() {
        return Optional.ofNullable(create);
    }

    /** Fields (dotted paths for struct fields) that were skipped because the type does not have them. */
    public List<String> ignoredFields() {
        return ignoredFields;
    }

    /** Whether any field was ignored: the {@code X-Vespa-Ignored-Fields} case. */
    public boolean hasIgnoredFields() {
        return !ignoredFields.isEmpty();
    }
}

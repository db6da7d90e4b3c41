package io.sluice.document.json;

import io.sluice.document.Document;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A put body read from JSON: the document, the body's condition and create flag, and fields that were ignored. */
public final class ParsedPut {

    private final Document document;
    private final String condition;
    private final Boolean create;
    private final List<String> ignoredFields;

    ParsedPut(Document document, String condition, Boolean create, List<String> ignoredFields) {
        this.document = Objects.requireNonNull(document, "document");
        this.condition = condition;
        this.create = create;
        this.ignoredFields = List.copyOf(ignoredFields);
    }

    public Document document() {
        return document;
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

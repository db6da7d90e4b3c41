package io.sluice.document.json;

import io.sluice.document.DocumentUpdate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An update body read from JSON: the update (its create-if-nonexistent flag set from the body's {@code "create"},
 * false if absent), the body's condition and create flag as given, and fields that were ignored.
 */
public final class ParsedUpdate {

    private final DocumentUpdate update;
    private final String condition;
    private final Boolean create;
    private final List<String> ignoredFields;

    ParsedUpdate(DocumentUpdate update, String condition, Boolean create, List<String> ignoredFields) {
        this.update = Objects.requireNonNull(update, "update");
        this.condition = condition;
        this.create = create;
        this.ignoredFields = List.copyOf(ignoredFields);
    }

    public DocumentUpdate update() {
        return update;
    }

    /** The body's {@code "condition"}, if given as a string. */
    public Optional<String> condition() {
        return Optional.ofNullable(condition);
    }

    /** The body's {@code "create"} flag, if given. */
    public Optional<Boolean> create() {
        return Optional.ofNullable(create);
    }

    /** Field names and paths (dotted for struct fields inside values) skipped because the type does not have them. */
    public List<String> ignoredFields() {
        return ignoredFields;
    }

    /** Whether any field was ignored: the {@code X-Vespa-Ignored-Fields} case. */
    public boolean hasIgnoredFields() {
        return !ignoredFields.isEmpty();
    }
}

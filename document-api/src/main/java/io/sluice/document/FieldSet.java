package io.sluice.document;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which fields of a document to return ({@code fieldSet} parameter): {@code [all]} and {@code [document]} (every
 * field), {@code [id]}, {@code [docid]} and {@code [none]} (no fields), {@code type:[document]} (every field of
 * documents of that type), {@code type:f1,f2} (the listed fields; a name may also be one of the type's named field
 * sets). Immutable.
 */
public final class FieldSet {

    private static final FieldSet ALL = new FieldSet("[all]", null, null);
    private static final FieldSet DOCUMENT = new FieldSet("[document]", null, null);
    private static final FieldSet NONE = new FieldSet("[none]", null, Set.of());

    private final String spec;
    private final String typeName;       // null: applies to every type
    private final Set<String> fieldNames; // null: every field

    private FieldSet(String spec, String typeName, Set<String> fieldNames) {
        this.spec = spec;
        this.typeName = typeName;
        this.fieldNames = fieldNames;
    }

    /** Every field of every document ({@code [all]}). */
    public static FieldSet all() {
        return ALL;
    }

    /** Every document field ({@code [document]}); the same as {@code [all]} here, as there are no extra fields. */
    public static FieldSet document() {
        return DOCUMENT;
    }

    /** No fields: only ids ({@code [none]}, {@code [id]}). */
    public static FieldSet none() {
        return NONE;
    }

    /**
     * Parses a field set specification against the known types.
     *
     * @throws FieldSetException naming the specification if it is malformed, or naming the unknown type or field
     */
    public static FieldSet parse(String spec, DocumentTypes types) {
        Objects.requireNonNull(spec, "spec");
        switch (spec) {
            case "[all]": return ALL;
            case "[document]": return DOCUMENT;
            case "[id]": return new FieldSet(spec, null, Set.of());
            case "[docid]": return new FieldSet(spec, null, Set.of());
            case "[none]": return NONE;
            default: break;
        }
        int colon = spec.indexOf(':');
        if (colon <= 0 || colon == spec.length() - 1)
            throw new FieldSetException("Invalid field set '" + spec
                                        + "': expected [all], [document], [id], [none], <type>:[document] or <type>:<fields>");
        String typeName = spec.substring(0, colon);
        DocumentType type = types.find(typeName).orElseThrow(
                () -> new FieldSetException("Invalid field set '" + spec + "': unknown document type '" + typeName + "'"));
        String fields = spec.substring(colon + 1);
        if (fields.equals("[document]") || fields.equals("[all]")) return new FieldSet(spec, typeName, null);
        if (fields.equals("[id]") || fields.equals("[none]") || fields.equals("[docid]"))
            return new FieldSet(spec, typeName, Set.of());
        Set<String> names = new LinkedHashSet<>();
        for (String name : fields.split(",", -1)) {
            String trimmed = name.trim();
            if (type.field(trimmed).isPresent()) {
                names.add(trimmed);
                continue;
            }
            List<String> named = type.fieldSets().get(trimmed);
            if (named == null)
                throw new FieldSetException("Invalid field set '" + spec + "': document type '" + typeName
                                            + "' has no field or field set '" + trimmed + "'");
            names.addAll(named);
        }
        return new FieldSet(spec, typeName, Collections.unmodifiableSet(names));
    }

    /** Whether this set returns any fields at all ({@code false} for {@code [id]} and {@code [none]}). */
    public boolean hasFields() {
        return fieldNames == null || !fieldNames.isEmpty();
    }

    /** Whether this set keeps every field of every document, so {@link #filter} returns documents unchanged. */
    public boolean isEveryField() {
        return typeName == null && fieldNames == null;
    }

    /** Whether the named field of a document of {@code type} is in this set. */
    public boolean includes(DocumentType type, String fieldName) {
        if (typeName != null && !type.isA(typeName)) return false;
        return fieldNames == null || fieldNames.contains(fieldName);
    }

    /** The document with only the fields in this set. */
    public Document filter(Document document) {
        if (isEveryField()) return document;
        return document.withOnly(name -> includes(document.type(), name));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSet && ((FieldSet) o).spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    /** The specification this set was parsed from. */
    @Override
    public String toString() {
        return spec;
    }
}

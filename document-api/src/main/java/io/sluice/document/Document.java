package io.sluice.document;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A document: its id, its type and the values of the fields that are set. Immutable; {@link #with} and
 * {@link #without} return modified copies. Empty values (empty strings, collections, structs) are never stored.
 */
public final class Document {

    private final DocumentId id;
    private final DocumentType type;
    private final Map<String, FieldValue> fields;

    private Document(DocumentId id, DocumentType type, Map<String, FieldValue> fields) {
        this.id = id;
        this.type = type;
        this.fields = Collections.unmodifiableMap(fields);
    }

    /**
     * A document without field values. Throws {@link DocumentException} if the id names another document type.
     */
    public static Document of(DocumentType type, DocumentId id) {
        return builder(type, id).build();
    }

    public static Builder builder(DocumentType type, DocumentId id) {
        return new Builder(type, id);
    }

    public DocumentId id() {
        return id;
    }

    public DocumentType type() {
        return type;
    }

    /** The values of the set fields, in the order they were set. */
    public Map<String, FieldValue> fields() {
        return fields;
    }

    /** The value of the named field, if set. */
    public Optional<FieldValue> value(String fieldName) {
        return Optional.ofNullable(fields.get(fieldName));
    }

    /**
     * This document with the named field set to {@code value}, or cleared when the value is empty.
     * Throws {@link DocumentException} if the type has no such field or the value does not fit it.
     */
    public Document with(String fieldName, FieldValue value) {
        return toBuilder().set(fieldName, value).build();
    }

    /** This document without the named field (cleared). Throws {@link DocumentException} for an unknown field. */
    public Document without(String fieldName) {
        checkField(type, fieldName);
        if (!fields.containsKey(fieldName)) return this;
        Map<String, FieldValue> copy = new LinkedHashMap<>(fields);
        copy.remove(fieldName);
        return new Document(id, type, copy);
    }

    /** This document with only the fields for which {@code keep} is true. */
    public Document withOnly(Predicate<String> keep) {
        Map<String, FieldValue> copy = new LinkedHashMap<>();
        for (Map.Entry<String, FieldValue> entry : fields.entrySet())
            if (keep.test(entry.getKey())) copy.put(entry.getKey(), entry.getValue());
        return copy.size() == fields.size() ? this : new Document(id, type, copy);
    }

    /** A builder starting from this document's values. */
    public Builder toBuilder() {
        Builder builder = new Builder(type, id);
        builder.fields.putAll(fields);
        return builder;
    }

    private static Field checkField(DocumentType type, String fieldName) {
        return type.field(fieldName).orElseThrow(() -> new InvalidDocumentException(
                "Field '" + fieldName + "' is not defined in document type '" + type.name() + "'"));
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof Document)) return false;
        Document other = (Document) o;
        return id.equals(other.id) && type.name().equals(other.type.name()) && fields.equals(other.fields);
    }

    @Override
    public int hashCode() {
        return id.hashCode() * 31 + fields.hashCode();
    }

    @Override
    public String toString() {
        return "document '" + id + "' " + fields;
    }

    /** Collects field values; every setter throws {@link DocumentException} on an unknown field or unfit value. */
    public static final class Builder {

        private final DocumentType type;
        private final DocumentId id;
        private final Map<String, FieldValue> fields = new LinkedHashMap<>();

        private Builder(DocumentType type, DocumentId id) {
            this.type = Objects.requireNonNull(type, "type");
            this.id = Objects.requireNonNull(id, "id");
            if (!id.documentType().equals(type.name()))
                throw new InvalidDocumentException("Document id '" + id + "' does not belong to document type '"
                                            + type.name() + "'");
        }

        /** Sets the field, or clears it when the value is empty. */
        public Builder set(String fieldName, FieldValue value) {
            Objects.requireNonNull(value, "value");
            Field field = checkField(type, fieldName);
            if (!field.type().accepts(value))
                throw new InvalidDocumentException("Field '" + fieldName + "' of type " + field.type().typeName()
                                            + " cannot hold the value " + value);
            if (value.isEmpty()) fields.remove(fieldName);
            else fields.put(fieldName, value);
            return this;
        }

        public Builder clear(String fieldName) {
            checkField(type, fieldName);
            fields.remove(fieldName);
            return this;
        }

        public Document build() {
            return new Document(id, type, new LinkedHashMap<>(fields));
        }
    }
}

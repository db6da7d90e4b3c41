package io.sluice.document;

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
    private final DocumentFields fields;

    private Document(DocumentId id, DocumentType type, DocumentFields fields) {
        this.id = id;
        this.type = type;
        this.fields = fields;
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

    /** The values of the set fields, unmodifiable, in the order of the type's {@link DocumentType#fields()}. */
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
        indexOf(type, fieldName);
        if (!fields.containsKey(fieldName)) return this;
        return toBuilder().clear(fieldName).build();
    }

    /** This document with only the fields for which {@code keep} is true. */
    public Document withOnly(Predicate<String> keep) {
        FieldValue[] values = fields.slots();
        FieldValue[] kept = new FieldValue[values.length];
        int size = 0;
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null && keep.test(type.fieldAt(i).name())) {
                kept[i] = values[i];
                size++;
            }
        }
        return size == fields.size() ? this : new Document(id, type, new DocumentFields(type, kept, size));
    }

    /**
     * This document with {@code id}, an equal id object: a store that holds many documents keeps one id object per
     * document this way, rather than each version's own (about ten objects: the id's strings and their bytes).
     *
     * @throws IllegalArgumentException if {@code id} is not equal to this document's id
     */
    public Document withIdInstance(DocumentId id) {
        if (id == this.id) return this;
        if (!id.equals(this.id))
            throw new IllegalArgumentException("Document '" + this.id + "' cannot take the id '" + id + "'");
        return new Document(id, type, fields);
    }

    /** A builder starting from this document's values. */
    public Builder toBuilder() {
        Builder builder = new Builder(type, id);
        builder.values = fields.slots();
        builder.size = fields.size();
        builder.shared = true;
        return builder;
    }

    /** The position of the named field's value; throws {@link DocumentException} if the type has no such field. */
    private static int indexOf(DocumentType type, String fieldName) {
        int index = type.fieldIndex(fieldName);
        if (index < 0)
            throw new InvalidDocumentException("Field '" + fieldName + "' is not defined in document type '"
                                               + type.name() + "'");
        return index;
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
        private FieldValue[] values; // a slot per field of the type
        private int size = 0;
        private boolean shared = false; // values belongs to a document too: copy it before a change

        private Builder(DocumentType type, DocumentId id) {
            this.type = Objects.requireNonNull(type, "type");
            this.id = Objects.requireNonNull(id, "id");
            this.values = new FieldValue[type.fieldCount()];
            if (!id.documentType().equals(type.name()))
                throw new InvalidDocumentException("Document id '" + id + "' does not belong to document type '"
                                            + type.name() + "'");
        }

        /** Sets the field, or clears it when the value is empty. */
        public Builder set(String fieldName, FieldValue value) {
            Objects.requireNonNull(value, "value");
            int index = indexOf(type, fieldName);
            Field field = type.fieldAt(index);
            if (!field.type().accepts(value))
                throw new InvalidDocumentException("Field '" + fieldName + "' of type " + field.type().typeName()
                                            + " cannot hold the value " + value);
            store(index, value.isEmpty() ? null : value);
            return this;
        }

        public Builder clear(String fieldName) {
            store(indexOf(type, fieldName), null);
            return this;
        }

        private void store(int index, FieldValue value) {
            if (values[index] == value) return;
            if (shared) {
                values = values.clone();
                shared = false;
            }
            if (values[index] == null) size++;
            if (value == null) size--;
            values[index] = value;
        }

        /** The document; the builder may go on, and its changes do not reach this document. */
        public Document build() {
            shared = true;
            return new Document(id, type, new DocumentFields(type, values, size));
        }
    }
}

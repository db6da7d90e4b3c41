package io.sluice.document;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A partial update of one document: operations on top-level fields ({@link FieldUpdate}) and on values inside fields
 * ({@link FieldPathUpdate}), plus the create-if-nonexistent flag. Immutable; built with {@link #builder}, which
 * checks every operation against the document type.
 *
 * <p>As in Vespa, {@link #applyTo} applies the field updates first, in the order their fields were first updated,
 * each field's operations in order, and then the field-path updates in order.
 */
public final class DocumentUpdate {

    private final DocumentId id;
    private final DocumentType type;
    private final List<FieldUpdate> fieldUpdates;
    private final List<FieldPathUpdate> fieldPathUpdates;
    private final boolean createIfNonExistent;

    private DocumentUpdate(DocumentId id, DocumentType type, List<FieldUpdate> fieldUpdates,
                           List<FieldPathUpdate> fieldPathUpdates, boolean createIfNonExistent) {
        this.id = id;
        this.type = type;
        this.fieldUpdates = List.copyOf(fieldUpdates);
        this.fieldPathUpdates = List.copyOf(fieldPathUpdates);
        this.createIfNonExistent = createIfNonExistent;
    }

    /** A builder for an update of the document with this id; throws {@link DocumentException} if the id is of another type. */
    public static Builder builder(DocumentType type, DocumentId id) {
        return new Builder(type, id);
    }

    public DocumentId id() {
        return id;
    }

    public DocumentType type() {
        return type;
    }

    /** Whether a missing document is created (as {@code Document.of(type, id)}) and then updated. */
    public boolean createIfNonExistent() {
        return createIfNonExistent;
    }

    /** The field updates, one per field, in the order the fields were first updated. */
    public List<FieldUpdate> fieldUpdates() {
        return fieldUpdates;
    }

    /** The field-path updates, in order. */
    public List<FieldPathUpdate> fieldPathUpdates() {
        return fieldPathUpdates;
    }

    /** Whether this update has no operations at all. */
    public boolean isEmpty() {
        return fieldUpdates.isEmpty() && fieldPathUpdates.isEmpty();
    }

    public DocumentUpdate withCreateIfNonExistent(boolean create) {
        if (create == createIfNonExistent) return this;
        return new DocumentUpdate(id, type, fieldUpdates, fieldPathUpdates, create);
    }

    /**
     * This update for another document of the same type (update-where applies one body to every matched document).
     * Throws {@link InvalidUpdateException} if the id names another document type.
     */
    public DocumentUpdate withId(DocumentId id) {
        checkType(type, id);
        return new DocumentUpdate(id, type, fieldUpdates, fieldPathUpdates, createIfNonExistent);
    }

    /**
     * Applies every field update in order to {@code current} and returns the new document; pure, {@code current} is
     * not changed. Throws {@link InvalidUpdateException} if {@code current} has another id or document type.
     */
    public Document applyTo(Document current) {
        if (!current.id().equals(id))
            throw new InvalidUpdateException("Update of '" + id + "' cannot be applied to document '" + current.id() + "'");
        if (!current.type().name().equals(type.name()))
            throw new InvalidUpdateException("Update for document type '" + type.name()
                                             + "' cannot be applied to a document of type '" + current.type().name() + "'");
        Document document = current;
        for (FieldUpdate fieldUpdate : fieldUpdates) {
            Field field = fieldUpdate.field();
            FieldValue value = document.value(field.name()).orElse(null);
            for (ValueUpdate update : fieldUpdate.updates())
                value = UpdateApplier.apply(update, value, field.type());
            document = set(document, field.name(), value);
        }
        for (FieldPathUpdate update : fieldPathUpdates) {
            String name = update.path().field().name();
            document = set(document, name, UpdateApplier.apply(update, document.value(name).orElse(null)));
        }
        return document;
    }

    private static Document set(Document document, String fieldName, FieldValue value) {
        return value == null ? document.without(fieldName) : document.with(fieldName, value);
    }

    private static void checkType(DocumentType type, DocumentId id) {
        if (!id.documentType().equals(type.name()))
            throw new InvalidUpdateException("Document id '" + id + "' does not belong to document type '"
                                             + type.name() + "'");
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof DocumentUpdate)) return false;
        DocumentUpdate other = (DocumentUpdate) o;
        return id.equals(other.id) && type.name().equals(other.type.name()) && fieldUpdates.equals(other.fieldUpdates)
               && fieldPathUpdates.equals(other.fieldPathUpdates) && createIfNonExistent == other.createIfNonExistent;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, fieldUpdates, fieldPathUpdates, createIfNonExistent);
    }

    @Override
    public String toString() {
        return "update of '" + id + "' " + fieldUpdates + " " + fieldPathUpdates
               + (createIfNonExistent ? " (create if nonexistent)" : "");
    }

    /** Collects operations; every method throws {@link InvalidUpdateException} naming the field if one does not fit. */
    public static final class Builder {

        private final DocumentType type;
        private final DocumentId id;
        private final Map<String, FieldUpdate> fieldUpdates = new LinkedHashMap<>();
        private final List<FieldPathUpdate> fieldPathUpdates = new ArrayList<>();
        private boolean createIfNonExistent;

        private Builder(DocumentType type, DocumentId id) {
            this.type = Objects.requireNonNull(type, "type");
            this.id = Objects.requireNonNull(id, "id");
            checkType(type, id);
        }

        /** Adds an operation on a top-level field, after any earlier operations on it. */
        public Builder update(String fieldName, ValueUpdate update) {
            Objects.requireNonNull(update, "update");
            Field field = type.field(fieldName).orElseThrow(() -> new InvalidUpdateException(
                    "No field named '" + fieldName + "' in document type '" + type.name() + "'"));
            FieldUpdate existing = fieldUpdates.get(fieldName);
            fieldUpdates.put(fieldName, existing == null ? new FieldUpdate(field, List.of(update)) : existing.with(update));
            return this;
        }

        /** Adds a field-path update (already checked against the type by its construction). */
        public Builder update(FieldPathUpdate update) {
            if (!type.field(update.path().field().name()).equals(java.util.Optional.of(update.path().field())))
                throw new InvalidUpdateException("Field path '" + update.path() + "' is not a path of document type '"
                                                 + type.name() + "'");
            fieldPathUpdates.add(update);
            return this;
        }

        /** Parses {@code path} against the type and adds the operation on it. */
        public Builder update(String path, FieldPathUpdate.Operation operation) {
            return update(new FieldPathUpdate(FieldPath.parse(type, path), operation));
        }

        public Builder createIfNonExistent(boolean create) {
            this.createIfNonExistent = create;
            return this;
        }

        public DocumentUpdate build() {
            return new DocumentUpdate(id, type, new ArrayList<>(fieldUpdates.values()), fieldPathUpdates,
                                      createIfNonExistent);
        }
    }
}

package io.sluice.document.select;

import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;

/** What {@link DocumentSelection#validate(SelectionSchema)} checks names against. */
public interface SelectionSchema {

    /** Whether a document type with this name exists. */
    boolean hasDocumentType(String name);

    /** Whether {@code documentType} (or a type it inherits) has a top-level field {@code fieldName}. */
    boolean hasField(String documentType, String fieldName);

    /** Whether the schema of {@code documentType} imports a parent document's field as {@code fieldName}. */
    default boolean hasImportedField(String documentType, String fieldName) {
        return false;
    }

    /** The names of {@code types}: their types, their fields and their imported fields. */
    static SelectionSchema of(DocumentTypes types) {
        return new SelectionSchema() {
            @Override
            public boolean hasDocumentType(String name) {
                return types.contains(name);
            }

            @Override
            public boolean hasField(String documentType, String fieldName) {
                return types.find(documentType).flatMap(type -> type.field(fieldName)).isPresent();
            }

            @Override
            public boolean hasImportedField(String documentType, String fieldName) {
                return types.find(documentType).map(DocumentType::importedFields)
                            .map(imported -> imported.contains(fieldName)).orElse(false);
            }
        };
    }

}

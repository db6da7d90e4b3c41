package io.sluice.document.select;

import io.sluice.document.DataType;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.Field;
import io.sluice.document.ImportedField;
import io.sluice.document.PrimitiveType;
import io.sluice.document.ReferenceType;

import java.util.Objects;
import java.util.Optional;

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

    /**
     * Why a selection cannot use the field imported into {@code documentType} as {@code fieldName}, or empty if it can
     * (see {@link #hasImportedField}).
     */
    default Optional<String> importedFieldRefusal(String documentType, String fieldName) {
        return Optional.of("Sluice does not follow references in selections");
    }

    /**
     * The names of {@code types}: their types, their fields and their imported fields. An imported field can be used
     * if it leads, through reference fields and the parents' own imported fields, to a primitive field of a parent
     * type (Vespa allows no collections or structs there).
     */
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
                return types.find(documentType).flatMap(type -> type.importedField(fieldName)).isPresent();
            }

            @Override
            public Optional<String> importedFieldRefusal(String documentType, String fieldName) {
                return refusal(types, documentType, fieldName, 0);
            }
        };
    }

    /** {@code schema}, refusing every imported field for {@code reason} (an engine that cannot read parents). */
    static SelectionSchema withoutImports(SelectionSchema schema, String reason) {
        Objects.requireNonNull(reason, "reason");
        return new SelectionSchema() {
            @Override
            public boolean hasDocumentType(String name) {
                return schema.hasDocumentType(name);
            }

            @Override
            public boolean hasField(String documentType, String fieldName) {
                return schema.hasField(documentType, fieldName);
            }

            @Override
            public boolean hasImportedField(String documentType, String fieldName) {
                return schema.hasImportedField(documentType, fieldName);
            }

            @Override
            public Optional<String> importedFieldRefusal(String documentType, String fieldName) {
                return Optional.of(reason);
            }
        };
    }

    private static Optional<String> refusal(DocumentTypes types, String documentType, String fieldName, int depth) {
        Optional<ImportedField> imported = types.find(documentType).flatMap(type -> type.importedField(fieldName));
        if (imported.isEmpty()) {
            return Optional.of("'" + documentType + "' imports no field '" + fieldName + "'");
        }
        ImportedField field = imported.get();
        if (depth >= 8) {
            return Optional.of("'" + field + "' in '" + documentType + "' leads through more than 8 references");
        }
        Optional<DataType> referenceType = types.get(documentType).field(field.referenceField()).map(Field::type);
        if (referenceType.isEmpty() || !(referenceType.get() instanceof ReferenceType)) {
            return Optional.of("'" + field + "' in '" + documentType + "': '" + field.referenceField()
                               + "' is not a reference field of '" + documentType + "'");
        }
        String parentName = ((ReferenceType) referenceType.get()).targetType();
        Optional<DocumentType> parent = types.find(parentName);
        if (parent.isEmpty()) {
            return Optional.of("'" + field + "' in '" + documentType + "': there is no document type '" + parentName + "'");
        }
        Optional<Field> target = parent.get().field(field.parentField());
        if (target.isPresent()) {
            DataType type = target.get().type();
            return type instanceof PrimitiveType && type != PrimitiveType.POSITION
                   ? Optional.empty()
                   : Optional.of("'" + field + "' in '" + documentType + "' imports a field of type " + type.typeName()
                                 + "; only fields of primitive types can be used in selections, as in Vespa");
        }
        if (parent.get().importedField(field.parentField()).isPresent()) {
            return refusal(types, parentName, field.parentField(), depth + 1);
        }
        return Optional.of("'" + field + "' in '" + documentType + "': '" + parentName + "' has no field '"
                           + field.parentField() + "'");
    }

}

package io.sluice.document;

import java.util.Objects;

/**
 * A field a schema imports from a parent document: {@code import field referenceField.parentField as name {}}. The
 * child's {@code referenceField} (of type {@code reference<parent>}) holds the parent's id; the value is the parent's
 * {@code parentField}, which may itself be imported from the parent's parent.
 */
public record ImportedField(String name, String referenceField, String parentField) {

    public ImportedField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(referenceField, "referenceField");
        Objects.requireNonNull(parentField, "parentField");
    }

    @Override
    public String toString() {
        return "import field " + referenceField + "." + parentField + " as " + name;
    }

}

package io.sluice.document.select;

/** What {@link DocumentSelection#validate(SelectionSchema)} checks names against. */
public interface SelectionSchema {

    /** Whether a document type with this name exists. */
    boolean hasDocumentType(String name);

    /** Whether {@code documentType} (or a type it inherits) has a top-level field {@code fieldName}. */
    boolean hasField(String documentType, String fieldName);

}

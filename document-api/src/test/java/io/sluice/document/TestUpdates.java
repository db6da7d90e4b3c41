package io.sluice.document;

import java.util.List;

/** Builds {@link DocumentUpdate}s for backend tests: the one place they come from, kept tiny on purpose. */
public final class TestUpdates {

    private TestUpdates() { }

    /** Sets {@code field} to {@code value}. */
    public static DocumentUpdate assign(DocumentType type, DocumentId id, String field, FieldValue value) {
        return DocumentUpdate.builder(type, id).update(field, new ValueUpdate.Assign(value)).build();
    }

    /** Adds {@code amount} to the numeric field {@code field}. */
    public static DocumentUpdate increment(DocumentType type, DocumentId id, String field, double amount) {
        return DocumentUpdate.builder(type, id)
                             .update(field, new ValueUpdate.Arithmetic(ValueUpdate.Arithmetic.Operator.INCREMENT, amount))
                             .build();
    }

    /** Appends {@code element} to the array field {@code field}. */
    public static DocumentUpdate append(DocumentType type, DocumentId id, String field, FieldValue element) {
        return DocumentUpdate.builder(type, id).update(field, new ValueUpdate.AddElements(List.of(element))).build();
    }

}

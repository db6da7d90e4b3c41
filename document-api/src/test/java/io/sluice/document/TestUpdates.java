package io.sluice.document;

import java.util.List;

/**
 * Builds {@link DocumentUpdate}s for tests. The only place tests create updates, so it alone changes when the
 * placeholder update class gives way to the real one (then: build them with its JSON update reader).
 */
public final class TestUpdates {

    private TestUpdates() { }

    /** Sets {@code field} to {@code value}. */
    public static DocumentUpdate assign(DocumentType type, DocumentId id, String field, FieldValue value) {
        return DocumentUpdate.of(type, id, List.of(document -> document.with(field, value)));
    }

    /** Appends {@code element} to the array field {@code field}. */
    public static DocumentUpdate append(DocumentType type, DocumentId id, String field, FieldValue element) {
        return DocumentUpdate.of(type, id, List.of(document -> {
            ArrayValue current = (ArrayValue) document.value(field).orElse(ArrayValue.EMPTY);
            return document.with(field, current.withAdded(List.of(element)));
        }));
    }

}

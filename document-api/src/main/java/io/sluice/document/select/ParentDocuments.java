package io.sluice.document.select;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How a selection evaluated in a content engine reaches the parent documents that imported fields
 * ({@code import field ref.field as name}) are read from. As in Vespa, an imported field whose parent cannot be
 * reached evaluates to {@code null}: a missing parent, a reference not set, or {@link #NONE} (where no parent can be
 * read, e.g. when a write is routed by a cluster's document selection).
 */
@FunctionalInterface
public interface ParentDocuments {

    /** No parent documents: every imported field is {@code null}. */
    ParentDocuments NONE = id -> Optional.empty();

    /**
     * The live document {@code id}, or empty if there is none. Called on the thread evaluating the selection; may read
     * the engine's store.
     */
    Optional<Document> find(DocumentId id);

    /**
     * This, remembering the last {@code capacity} answers: the children in a batch of a visit often share parents.
     * Not thread-safe; meant for one batch, so a parent written meanwhile is seen by the next one.
     */
    default ParentDocuments remembering(int capacity) {
        if (this == NONE) {
            return NONE;
        }
        Map<DocumentId, Optional<Document>> answers = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<DocumentId, Optional<Document>> eldest) {
                return size() > capacity;
            }
        };
        return id -> {
            Optional<Document> known = answers.get(id);
            if (known == null) {
                known = find(id);
                answers.put(id, known);
            }
            return known;
        };
    }

}

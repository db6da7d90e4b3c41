package io.sluice.document;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * PLACEHOLDER until branch h/update lands the real class: a partial update of one document. Only the public methods
 * below are part of the contract other code may use; the real class replaces this one at merge.
 */
public final class DocumentUpdate {

    private final DocumentType type;
    private final DocumentId id;
    private final boolean createIfNonExistent;
    private final List<UnaryOperator<Document>> operations;

    private DocumentUpdate(DocumentType type, DocumentId id, boolean createIfNonExistent,
                           List<UnaryOperator<Document>> operations) {
        this.type = Objects.requireNonNull(type, "type");
        this.id = Objects.requireNonNull(id, "id");
        this.createIfNonExistent = createIfNonExistent;
        this.operations = List.copyOf(operations);
    }

    /** Placeholder factory: an update that applies {@code operations} in order. */
    static DocumentUpdate of(DocumentType type, DocumentId id, List<UnaryOperator<Document>> operations) {
        return new DocumentUpdate(type, id, false, operations);
    }

    /** The id of the document to update. */
    public DocumentId id() {
        return id;
    }

    /** The type of the document to update. */
    public DocumentType type() {
        return type;
    }

    /** Whether a missing document is created (from an empty one) and then updated. */
    public boolean createIfNonExistent() {
        return createIfNonExistent;
    }

    /** This update with the create-if-nonexistent flag set as given. */
    public DocumentUpdate withCreateIfNonExistent(boolean create) {
        return new DocumentUpdate(type, id, create, operations);
    }

    /** This update aimed at another document of the same type. */
    public DocumentUpdate withId(DocumentId otherId) {
        return new DocumentUpdate(type, otherId, createIfNonExistent, operations);
    }

    /** The document that results from applying this update to {@code current}. */
    public Document applyTo(Document current) {
        Document result = current;
        for (UnaryOperator<Document> operation : operations) {
            result = operation.apply(result);
        }
        return result;
    }

}

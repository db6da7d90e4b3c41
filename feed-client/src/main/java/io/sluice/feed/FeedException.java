package io.sluice.feed;

import java.util.Optional;

/**
 * An operation failed. When the failure concerns one document, its id is carried and prefixed to the message as
 * {@code (id:ns:type::x) message}, as the official client does.
 */
public class FeedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient DocumentId documentId;

    public FeedException(String message) { this(null, message, null); }

    public FeedException(DocumentId documentId, String message) { this(documentId, message, null); }

    public FeedException(DocumentId documentId, String message, Throwable cause) {
        super(documentId == null ? message : "(" + documentId + ") " + message, cause);
        this.documentId = documentId;
    }

    public FeedException(DocumentId documentId, Throwable cause) {
        this(documentId, String.valueOf(cause), cause);
    }

    public Optional<DocumentId> documentId() { return Optional.ofNullable(documentId); }

}

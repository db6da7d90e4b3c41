package io.sluice.feed;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * An operation failed. When the failure concerns one document, its id is carried and prefixed to the message as
 * {@code (id:ns:type::x) message}, as the official client does. When the server answered, its HTTP status is carried
 * too.
 */
public class FeedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient DocumentId documentId;
    private final int httpStatus; // 0: no response (transport failure, timeout, client closed, …)

    public FeedException(String message) { this(null, message, null); }

    /** The server answered {@code httpStatus}, which failed the operation. */
    public FeedException(DocumentId documentId, int httpStatus, String message) {
        super(documentId == null ? message : "(" + documentId + ") " + message);
        this.documentId = documentId;
        this.httpStatus = httpStatus;
    }

    public FeedException(DocumentId documentId, String message) { this(documentId, message, null); }

    public FeedException(DocumentId documentId, String message, Throwable cause) {
        super(documentId == null ? message : "(" + documentId + ") " + message, cause);
        this.documentId = documentId;
        this.httpStatus = 0;
    }

    public FeedException(DocumentId documentId, Throwable cause) {
        this(documentId, String.valueOf(cause), cause);
    }

    public Optional<DocumentId> documentId() { return Optional.ofNullable(documentId); }

    /** The HTTP status of the response that failed the operation; empty when no response did. */
    public OptionalInt httpStatus() { return httpStatus == 0 ? OptionalInt.empty() : OptionalInt.of(httpStatus); }

    /** The message without the {@code (id) } prefix. */
    public String reason() {
        String message = getMessage();
        return documentId != null && message.startsWith("(" + documentId + ") ")
               ? message.substring(documentId.toString().length() + 3) : message;
    }

}

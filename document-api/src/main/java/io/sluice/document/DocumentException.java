package io.sluice.document;

/**
 * Base of every exception the document module throws for bad input: ids, documents, JSON, schemas, field sets.
 * Placeholder; the real class comes from the ids work.
 */
public class DocumentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DocumentException(String message) {
        super(message);
    }

    public DocumentException(String message, Throwable cause) {
        super(message, cause);
    }
}

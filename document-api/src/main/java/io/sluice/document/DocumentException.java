package io.sluice.document;

/**
 * Base of every exception the document API throws for bad input: malformed ids, selections, documents and updates.
 * Callers that turn client input into responses catch this type; anything else escaping the module is a bug.
 */
public abstract class DocumentException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what was wrong, naming the offending value */
    protected DocumentException(String message) {
        super(message);
    }

    /** @param message what was wrong, naming the offending value; @param cause the underlying failure */
    protected DocumentException(String message, Throwable cause) {
        super(message, cause);
    }

}

package io.sluice.document;

/** Thrown by {@link DocumentId#of(String)} when a string is not a valid document id; the message is Vespa's. */
public final class IllegalDocumentIdException extends DocumentException {

    private static final long serialVersionUID = 1L;

    /** @param message the reason, in the words Vespa uses for the same violation */
    public IllegalDocumentIdException(String message) {
        super(message);
    }

}

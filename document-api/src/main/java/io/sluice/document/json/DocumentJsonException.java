package io.sluice.document.json;

import io.sluice.document.DocumentException;

/**
 * A JSON document body that is malformed or does not fit the document type. The message is meant for the client
 * (a 400 response); it names the offending field and value.
 */
public class DocumentJsonException extends DocumentException {

    private static final long serialVersionUID = 1L;

    public DocumentJsonException(String message) {
        super(message);
    }

    public DocumentJsonException(String message, Throwable cause) {
        super(message, cause);
    }

    /** This exception's kind with {@code prefix} in front of the message, keeping this as the cause. */
    DocumentJsonException withPrefix(String prefix) {
        return new DocumentJsonException(prefix + getMessage(), this);
    }
}

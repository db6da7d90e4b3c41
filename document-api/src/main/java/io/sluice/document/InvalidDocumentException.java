package io.sluice.document;

/**
 * A document, field value or type definition that breaks the document model's rules: a value of the wrong type for
 * its field, an unknown field, an out-of-range number, a malformed tensor. The message names the offending value.
 */
public class InvalidDocumentException extends DocumentException {

    private static final long serialVersionUID = 1L;

    public InvalidDocumentException(String message) {
        super(message);
    }

    public InvalidDocumentException(String message, Throwable cause) {
        super(message, cause);
    }

}

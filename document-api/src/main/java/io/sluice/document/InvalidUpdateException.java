package io.sluice.document;

/**
 * A document update that does not fit its document type: an unknown field, an operation the field's type does not
 * support, a value of the wrong type, or a malformed field path. The message names the field and the bad value.
 */
public class InvalidUpdateException extends DocumentException {

    private static final long serialVersionUID = 1L;

    public InvalidUpdateException(String message) {
        super(message);
    }

    public InvalidUpdateException(String message, Throwable cause) {
        super(message, cause);
    }

}

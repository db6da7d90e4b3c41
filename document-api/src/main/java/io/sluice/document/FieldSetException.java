package io.sluice.document;

/** A field set specification that is malformed or names an unknown document type or field. */
public final class FieldSetException extends DocumentException {

    private static final long serialVersionUID = 1L;

    public FieldSetException(String message) {
        super(message);
    }
}

package io.sluice.document.json;

/** A JSON body set a field its document type or struct does not have, and unknown fields are not ignored. */
public final class UnknownFieldException extends DocumentJsonException {

    private static final long serialVersionUID = 1L;

    private final String fieldName;

    public UnknownFieldException(String message, String fieldName) {
        super(message);
        this.fieldName = fieldName;
    }

    private UnknownFieldException(String message, String fieldName, Throwable cause) {
        super(message, cause);
        this.fieldName = fieldName;
    }

    /** The name of the unknown field. */
    public String fieldName() {
        return fieldName;
    }

    @Override
    DocumentJsonException withPrefix(String prefix) {
        return new UnknownFieldException(prefix + getMessage(), fieldName, this);
    }
}

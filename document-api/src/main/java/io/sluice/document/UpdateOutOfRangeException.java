package io.sluice.document;

/**
 * An update that is valid on its own but cannot apply to the document it meets: an arithmetic result the field's type
 * cannot hold (an int at 2147483647 incremented by 1). The client's request is what is wrong, so it is answered as bad
 * input (400), and nothing is written.
 */
public final class UpdateOutOfRangeException extends InvalidDocumentException {

    private static final long serialVersionUID = 1L;

    public UpdateOutOfRangeException(String message) {
        super(message);
    }

}

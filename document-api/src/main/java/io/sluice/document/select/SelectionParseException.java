package io.sluice.document.select;

import io.sluice.document.DocumentException;

/**
 * Thrown when a document selection string cannot be parsed, or names something a schema does not have.
 * The message names the offending text, its position and what was expected there.
 */
public final class SelectionParseException extends DocumentException {

    private static final long serialVersionUID = 1L;

    private final int position;
    private final String expected;

    /**
     * @param selection the whole selection string
     * @param position zero-based character offset of the problem
     * @param found what was found there, as shown to the user
     * @param expected what would have been accepted there
     */
    SelectionParseException(String selection, int position, String found, String expected) {
        super("Unexpected " + found + " at position " + position + " in selection '" + selection + "': expected "
              + expected);
        this.position = position;
        this.expected = expected;
    }

    /** Zero-based character offset in the selection string where the problem was found. */
    public int position() {
        return position;
    }

    /** What the parser would have accepted at {@link #position()}, e.g. {@code "a value"}. */
    public String expected() {
        return expected;
    }

}

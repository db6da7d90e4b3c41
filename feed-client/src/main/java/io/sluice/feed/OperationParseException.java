package io.sluice.feed;

/** A feed operation in the input was malformed; the message names the position (offset, line and column). */
public class OperationParseException extends FeedException {

    private static final long serialVersionUID = 1L;

    public OperationParseException(String message) { super(message); }

    public OperationParseException(String message, Throwable cause) { super(null, message, cause); }

}

package io.sluice.content;

import io.sluice.document.DocumentException;

/**
 * A continuation token that is malformed, corrupt, of an unknown version, or used with another slice, bucket space or
 * distribution than it was made for. The message names what is wrong; callers answer it as a client error.
 */
public final class InvalidProgressTokenException extends DocumentException {

    private static final long serialVersionUID = 1L;

    public InvalidProgressTokenException(String message) {
        super(message);
    }

}

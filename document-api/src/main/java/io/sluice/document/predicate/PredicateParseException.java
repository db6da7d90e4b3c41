package io.sluice.document.predicate;

import io.sluice.document.DocumentException;

/** Text that is not a predicate; the message names the column (from 1) and what was expected there. */
public final class PredicateParseException extends DocumentException {

    private static final long serialVersionUID = 1L;

    public PredicateParseException(String message) {
        super(message);
    }
}

package io.sluice.document.select;

/**
 * The three-valued outcome of evaluating a selection. {@code INVALID} means the question could not be answered (a
 * field of a removed document, ordering against {@code null}, mismatched types); at the top it counts as no match.
 */
public enum Result {
    TRUE, FALSE, INVALID;

    static Result of(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** FALSE if either is FALSE, else INVALID if either is INVALID, else TRUE. */
    Result and(Result other) {
        if (this == FALSE || other == FALSE) {
            return FALSE;
        }
        return this == INVALID || other == INVALID ? INVALID : TRUE;
    }

    /** TRUE if either is TRUE, else INVALID if either is INVALID, else FALSE. */
    Result or(Result other) {
        if (this == TRUE || other == TRUE) {
            return TRUE;
        }
        return this == INVALID || other == INVALID ? INVALID : FALSE;
    }

    /** Swaps TRUE and FALSE; INVALID stays INVALID. */
    Result not() {
        return this == TRUE ? FALSE : this == FALSE ? TRUE : INVALID;
    }
}

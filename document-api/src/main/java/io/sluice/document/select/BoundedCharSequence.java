package io.sluice.document.select;

/**
 * A string view that stops a regular expression search after a fixed number of character reads, so a pathological
 * pattern in a selection ({@code =~ "(a+)+$"}) costs bounded time per document instead of hanging a visit.
 */
final class BoundedCharSequence implements CharSequence {

    /** Thrown when the budget is spent; the comparison then evaluates as invalid. */
    static final class BudgetExceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BudgetExceeded() {
            super("Regular expression search exceeded its budget", null, false, false);
        }
    }

    private final String text;
    private final long[] remaining;

    private BoundedCharSequence(String text, long[] remaining) {
        this.text = text;
        this.remaining = remaining;
    }

    /** A view of {@code text} allowing {@code budget} character reads in total, shared with its sub-sequences. */
    static BoundedCharSequence of(String text, long budget) {
        return new BoundedCharSequence(text, new long[] {budget});
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public char charAt(int index) {
        if (--remaining[0] < 0) {
            throw new BudgetExceeded();
        }
        return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new BoundedCharSequence(text.substring(start, end), remaining);
    }

    @Override
    public String toString() {
        return text;
    }

}

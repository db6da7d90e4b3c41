package io.sluice.document.select;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * The regular expressions of {@code =~}: RE2 syntax and semantics, as Vespa's content nodes evaluate them, so a search
 * takes time linear in the text whatever the pattern (no backtracking: {@code (a+)+$} over a long value is as cheap
 * as {@code a}). RE2 has no look-around and no back-references; such patterns are refused.
 *
 * <p>RE2 compiles counted repetition by copying the repeated part, so {@code ((a{1000}){1000}){1000}} would compile
 * to a billion instructions. Patterns whose expanded size exceeds {@link #MAX_EXPANDED_SIZE} are refused before
 * they are compiled, which bounds both the memory a pattern takes and the work per character of a search.
 */
final class SelectionRegex {

    /** Largest size of a pattern with its counted repetitions expanded, counted in characters of the pattern. */
    static final long MAX_EXPANDED_SIZE = 10_000;

    private SelectionRegex() { }

    /** Thrown for a pattern that is not valid RE2, or too large once expanded; the message says which. */
    static final class InvalidPattern extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidPattern(String message) {
            super(message);
        }
    }

    /** Compiles {@code regex}, or throws {@link InvalidPattern} saying what is wrong with it. */
    static Pattern compile(String regex) {
        long size = expandedSize(regex);
        if (size > MAX_EXPANDED_SIZE) {
            throw new InvalidPattern("its counted repetitions expand it to more than " + MAX_EXPANDED_SIZE + " characters");
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new InvalidPattern(e.getDescription() + (e.getPattern().isEmpty() ? "" : ": `" + e.getPattern() + "`"));
        }
    }

    /**
     * An upper bound of the size of {@code regex} with every counted repetition {@code x{n,m}} replaced by {@code m}
     * (or {@code n}) copies of {@code x}, counted in characters; large values stop early above the limit.
     */
    static long expandedSize(String regex) {
        long[] sizes = new long[regex.length() + 2]; // sizes[depth]: expanded size of the open group at that depth
        int depth = 0;
        long last = 0; // expanded size of the last atom, which a repetition operator would repeat
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            if (c == '\\') {
                int end = Math.min(regex.length(), i + 2);
                last = end - i;
                sizes[depth] += last;
                i = end;
            } else if (c == '[') {
                int end = classEnd(regex, i);
                last = end - i;
                sizes[depth] += last;
                i = end;
            } else if (c == '(') {
                sizes[++depth] = 1;
                i++;
            } else if (c == ')' && depth > 0) {
                last = sizes[depth--] + 1;
                sizes[depth] += last;
                i++;
            } else if (c == '{') {
                int end = regex.indexOf('}', i);
                long count = end < 0 ? -1 : repeatCount(regex.substring(i + 1, end));
                if (count < 0) { // not a repetition: a literal brace
                    last = 1;
                    sizes[depth] += 1;
                    i++;
                } else {
                    sizes[depth] = saturatedAdd(sizes[depth], saturatedMultiply(last, Math.max(0, count - 1)));
                    last = 0;
                    i = end + 1;
                }
            } else {
                last = 1;
                sizes[depth] += 1;
                i++;
            }
            if (sizes[depth] > MAX_EXPANDED_SIZE) {
                return sizes[depth];
            }
        }
        long total = 0;
        for (int d = 0; d <= depth; d++) {
            total = saturatedAdd(total, sizes[d]);
        }
        return total;
    }

    /** The index after the character class that starts at {@code start} ('['), or the end of the pattern. */
    private static int classEnd(String regex, int start) {
        int i = start + 1;
        if (i < regex.length() && regex.charAt(i) == '^') {
            i++;
        }
        if (i < regex.length() && regex.charAt(i) == ']') {
            i++; // a leading ']' is literal
        }
        while (i < regex.length()) {
            char c = regex.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == '[' && i + 1 < regex.length() && regex.charAt(i + 1) == ':') {
                int end = regex.indexOf(":]", i + 2);
                i = end < 0 ? i + 1 : end + 2;
            } else if (c == ']') {
                return i + 1;
            } else {
                i++;
            }
        }
        return regex.length();
    }

    /** The largest count of a repetition {@code n}, {@code n,} or {@code n,m} (between braces), or -1 if it is not one. */
    private static long repeatCount(String inside) {
        int comma = inside.indexOf(',');
        String min = comma < 0 ? inside : inside.substring(0, comma);
        String max = comma < 0 ? "" : inside.substring(comma + 1);
        if (!isCount(min) || (!max.isEmpty() && !isCount(max))) {
            return -1;
        }
        return Math.max(Long.parseLong(min), max.isEmpty() ? 0 : Long.parseLong(max));
    }

    private static boolean isCount(String text) {
        if (text.isEmpty() || text.length() > 9) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long saturatedMultiply(long a, long b) {
        return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

}

package io.sluice.document.select;

/** Glob matching for the {@code =} operator: {@code *} matches any run, {@code ?} one character, the rest itself. */
final class Glob {

    private Glob() {
    }

    /** Whether all of {@code text} matches {@code pattern}; linear backtracking, so no pattern can blow up. */
    static boolean matches(String pattern, String text) {
        int p = 0;
        int t = 0;
        int star = -1;
        int starText = 0;
        while (t < text.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == text.charAt(t))
                && pattern.charAt(p) != '*') {
                p++;
                t++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                starText = t;
            } else if (star >= 0) {
                p = star + 1;
                t = ++starText;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

}

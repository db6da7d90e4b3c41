package io.sluice.document;

import java.util.OptionalInt;

/**
 * Vespa's notion of a "text character": the code points allowed in document ids and group names.
 * ASCII control characters other than TAB, LF and CR are rejected, and so are unpaired surrogates, the
 * non-characters U+FDD0..U+FDDF and U+xxFFFE/U+xxFFFF, and everything from U+10FFFE up.
 */
final class TextCharacters {

    private TextCharacters() {
    }

    static boolean isTextCharacter(int codePoint) {
        if (codePoint < 0x80) {
            return codePoint >= 0x20 || codePoint == '\t' || codePoint == '\n' || codePoint == '\r';
        }
        if (codePoint < Character.MIN_SURROGATE) {
            return true;
        }
        if (codePoint <= Character.MAX_SURROGATE) {
            return false;
        }
        if (codePoint < 0xFDD0) {
            return true;
        }
        if (codePoint <= 0xFDDF) {
            return false;
        }
        if (codePoint < 0x10FFFE) {
            return (codePoint & 0xFFFF) < 0xFFFE;
        }
        return false;
    }

    /** Returns the first code point of {@code text} that is not a text character, if any. */
    static OptionalInt firstIllegal(String text) {
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            if (!isTextCharacter(codePoint)) {
                return OptionalInt.of(codePoint);
            }
            i += Character.charCount(codePoint);
        }
        return OptionalInt.empty();
    }

}

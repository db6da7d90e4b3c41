package io.sluice.document.predicate;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits predicate text into tokens the way Vespa's predicate lexer does: words of ASCII letters, digits and
 * underscores; integers ({@code 0}, or an optional sign and digits without a leading zero); the keywords
 * {@code and or not in true false}, in lower or upper case only (so {@code And} is a word); strings in single or
 * double quotes with backslash escapes; the symbols {@code ( ) [ ] , .. = =- +[}. Only spaces and tabs separate
 * tokens.
 */
final class PredicateLexer {

    /** Token kinds; those that can stand for a key or value come first, up to {@link #FALSE}. */
    enum Kind {
        WORD, INTEGER, STRING, AND, OR, NOT, IN, TRUE, FALSE,
        LEFT_PAREN, RIGHT_PAREN, LEFT_BRACKET, RIGHT_BRACKET, COMMA, DOTS, EQUALS, EQUALS_MINUS, PLUS_BRACKET, END
    }

    /**
     * One token: its kind, its value (a string's decoded content, else the text as written) and its column from 1.
     */
    record Token(Kind kind, String value, int column) {

        /** Whether this token can be a key or a value: a word, integer, string or keyword. */
        boolean isValue() {
            return kind.compareTo(Kind.FALSE) <= 0;
        }

        /** The token for error messages. */
        String describe() {
            if (kind == Kind.END) return "end of input";
            if (kind == Kind.STRING) return "string '" + value + "'";
            return "'" + value + "'";
        }
    }

    private final String text;
    private int position = 0;

    private PredicateLexer(String text) {
        this.text = text;
    }

    /**
     * The tokens of {@code text}, ending with an {@link Kind#END} token.
     *
     * @throws PredicateParseException at a character no token starts with, or a string that does not end
     */
    static List<Token> tokens(String text) {
        PredicateLexer lexer = new PredicateLexer(text);
        List<Token> tokens = new ArrayList<>();
        Token token;
        do {
            token = lexer.next();
            tokens.add(token);
        } while (token.kind() != Kind.END);
        return tokens;
    }

    private Token next() {
        while (position < text.length() && (text.charAt(position) == ' ' || text.charAt(position) == '\t')) position++;
        int start = position;
        if (position == text.length()) return new Token(Kind.END, "", start + 1);
        char c = text.charAt(position);
        if (isWordChar(c)) return word(start);
        if ((c == '-' || c == '+') && position + 1 < text.length() && isDigit(text.charAt(position + 1)))
            return signedInteger(start);
        if (c == '\'' || c == '"') return string(start, c);
        switch (c) {
            case '(': return symbol(Kind.LEFT_PAREN, 1);
            case ')': return symbol(Kind.RIGHT_PAREN, 1);
            case '[': return symbol(Kind.LEFT_BRACKET, 1);
            case ']': return symbol(Kind.RIGHT_BRACKET, 1);
            case ',': return symbol(Kind.COMMA, 1);
            case '.': if (startsWith("..")) return symbol(Kind.DOTS, 2); break;
            case '=': return startsWith("=-") ? symbol(Kind.EQUALS_MINUS, 2) : symbol(Kind.EQUALS, 1);
            case '+': if (startsWith("+[")) return symbol(Kind.PLUS_BRACKET, 2); break;
            default: break;
        }
        throw new PredicateParseException("Unexpected character " + describe(text.codePointAt(start)) + " at column "
                                          + (start + 1));
    }

    private Token word(int start) {
        while (position < text.length() && isWordChar(text.charAt(position))) position++;
        String word = text.substring(start, position);
        return new Token(wordKind(word), word, start + 1);
    }

    private static Kind wordKind(String word) {
        switch (word) {
            case "and": case "AND": return Kind.AND;
            case "or": case "OR": return Kind.OR;
            case "not": case "NOT": return Kind.NOT;
            case "in": case "IN": return Kind.IN;
            case "true": case "TRUE": return Kind.TRUE;
            case "false": case "FALSE": return Kind.FALSE;
            default: return isInteger(word, 0) ? Kind.INTEGER : Kind.WORD;
        }
    }

    /** A sign and digits; like Vespa's lexer, a leading zero ends the integer ("-01" is "-0" then "1"). */
    private Token signedInteger(int start) {
        position++;
        if (text.charAt(position) == '0') position++;
        else while (position < text.length() && isDigit(text.charAt(position))) position++;
        return new Token(Kind.INTEGER, text.substring(start, position), start + 1);
    }

    private static boolean isInteger(String word, int from) {
        for (int i = from; i < word.length(); i++)
            if (!isDigit(word.charAt(i))) return false;
        return word.length() > from && (word.charAt(from) != '0' || word.length() == from + 1);
    }

    /**
     * A string: everything up to the closing quote, where a backslash escapes the next character. The content is
     * decoded as Vespa does: {@code \f \n \r \t}, {@code \xHH} for a byte of the UTF-8 encoding, and a backslash
     * before anything else stands for that character.
     */
    private Token string(int start, char quote) {
        ByteArrayOutputStream utf8 = new ByteArrayOutputStream();
        position++;
        while (true) {
            if (position >= text.length())
                throw new PredicateParseException("String starting at column " + (start + 1) + " does not end");
            int c = text.codePointAt(position);
            position += Character.charCount(c);
            if (c == quote) break;
            if (c != '\\') {
                writeUtf8(c, utf8);
                continue;
            }
            if (position >= text.length())
                throw new PredicateParseException("String starting at column " + (start + 1) + " does not end");
            int escaped = text.codePointAt(position);
            position += Character.charCount(escaped);
            switch (escaped) {
                case 'f': utf8.write('\f'); break;
                case 'n': utf8.write('\n'); break;
                case 'r': utf8.write('\r'); break;
                case 't': utf8.write('\t'); break;
                case 'x': utf8.write(hexByte(position - 2)); break;
                default: writeUtf8(escaped, utf8);
            }
        }
        return new Token(Kind.STRING, utf8.toString(StandardCharsets.UTF_8), start + 1);
    }

    private int hexByte(int escapeStart) {
        int high = position < text.length() ? Character.digit(text.charAt(position), 16) : -1;
        int low = position + 1 < text.length() ? Character.digit(text.charAt(position + 1), 16) : -1;
        if (high < 0 || low < 0)
            throw new PredicateParseException("Expected two hex digits after '\\x' at column " + (escapeStart + 1));
        position += 2;
        return high << 4 | low;
    }

    private static void writeUtf8(int codePoint, ByteArrayOutputStream out) {
        out.writeBytes(new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8));
    }

    private Token symbol(Kind kind, int length) {
        int start = position;
        position += length;
        return new Token(kind, text.substring(start, position), start + 1);
    }

    private boolean startsWith(String symbol) {
        return text.startsWith(symbol, position);
    }

    private static boolean isWordChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String describe(int codePoint) {
        if (codePoint < 0x20 || codePoint == 0x7F) return String.format("U+%04X", codePoint);
        return "'" + new String(Character.toChars(codePoint)) + "'";
    }
}

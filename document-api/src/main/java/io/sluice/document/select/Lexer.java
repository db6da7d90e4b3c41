package io.sluice.document.select;

import io.sluice.document.select.Expression.PathElement;
import io.sluice.document.select.Token.Kind;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a selection into tokens. Identifiers follow Vespa's lexer: they may contain {@code - @ $} after the first
 * character (so {@code a-1} is one identifier), and carry any {@code {key}} / {@code [index]} subscripts that follow
 * them directly.
 */
final class Lexer {

    private final String input;
    private int pos;

    Lexer(String input) {
        this.input = input;
    }

    List<Token> tokens() {
        List<Token> tokens = new ArrayList<>();
        while (true) {
            skipWhitespace();
            if (pos >= input.length()) {
                tokens.add(new Token(Kind.EOF, "", pos, null, List.of()));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private void skipWhitespace() {
        while (pos < input.length()) {
            char c = input.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') {
                return;
            }
            pos++;
        }
    }

    private Token next() {
        int start = pos;
        char c = input.charAt(pos);
        if (c >= '0' && c <= '9') {
            return number();
        }
        if (isIdentifierStart(c)) {
            return identifier();
        }
        if (c == '"' || c == '\'') {
            String value = string(c);
            return new Token(Kind.STRING, input.substring(start, pos), start, value, List.of());
        }
        switch (c) {
            case '(': return symbol(Kind.LPAREN, 1);
            case ')': return symbol(Kind.RPAREN, 1);
            case '+': return symbol(Kind.PLUS, 1);
            case '-': return symbol(Kind.MINUS, 1);
            case '*': return symbol(Kind.STAR, 1);
            case '/': return symbol(Kind.SLASH, 1);
            case '%': return symbol(Kind.PERCENT, 1);
            case '.': return symbol(Kind.DOT, 1);
            case '$': return symbol(Kind.DOLLAR, 1);
            case '!':
                if (peek(1) == '=') {
                    return symbol(Kind.NE, 2);
                }
                break;
            case '<': return peek(1) == '=' ? symbol(Kind.LE, 2) : symbol(Kind.LT, 1);
            case '>': return peek(1) == '=' ? symbol(Kind.GE, 2) : symbol(Kind.GT, 1);
            case '=':
                if (peek(1) == '=') {
                    return symbol(Kind.EQ, 2);
                }
                return peek(1) == '~' ? symbol(Kind.REGEX, 2) : symbol(Kind.GLOB, 1);
            default:
                break;
        }
        throw error(start, "'" + new String(Character.toChars(input.codePointAt(start))) + "'", "a value or operator");
    }

    private int peek(int ahead) {
        return pos + ahead < input.length() ? input.charAt(pos + ahead) : -1;
    }

    private Token symbol(Kind kind, int length) {
        Token token = new Token(kind, input.substring(pos, pos + length), pos, null, List.of());
        pos += length;
        return token;
    }

    private static boolean isIdentifierStart(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isIdentifierPart(int c) {
        return isIdentifierStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '@' || c == '$';
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    private Token identifier() {
        int start = pos;
        while (pos < input.length() && isIdentifierPart(input.charAt(pos))) {
            pos++;
        }
        String name = input.substring(start, pos);
        List<PathElement> subscripts = new ArrayList<>();
        while (pos < input.length() && (input.charAt(pos) == '{' || input.charAt(pos) == '[')) {
            subscripts.add(input.charAt(pos) == '{' ? braceSubscript() : bracketSubscript());
        }
        return new Token(Kind.IDENTIFIER, input.substring(start, pos), start, name, List.copyOf(subscripts));
    }

    private PathElement braceSubscript() {
        int open = pos++;
        PathElement element;
        if (pos < input.length() && input.charAt(pos) == '$') {
            pos++;
            element = new PathElement(PathElement.Kind.KEY_VARIABLE, variableName());
        } else if (pos < input.length() && input.charAt(pos) == '"') {
            element = new PathElement(PathElement.Kind.KEY, string('"'));
        } else {
            int start = pos;
            while (pos < input.length() && input.charAt(pos) != '}' && input.charAt(pos) != '{') {
                pos++;
            }
            if (pos == start) {
                throw error(pos, describeAt(pos), "a map key");
            }
            element = new PathElement(PathElement.Kind.KEY, input.substring(start, pos));
        }
        if (pos >= input.length() || input.charAt(pos) != '}') {
            throw error(pos, describeAt(pos), "'}' closing the subscript opened at position " + open);
        }
        pos++;
        return element;
    }

    private PathElement bracketSubscript() {
        int open = pos++;
        PathElement element;
        if (pos < input.length() && input.charAt(pos) == '$') {
            pos++;
            element = new PathElement(PathElement.Kind.INDEX_VARIABLE, variableName());
        } else {
            int start = pos;
            while (pos < input.length() && isDigit(input.charAt(pos))) {
                pos++;
            }
            if (pos == start) {
                throw error(pos, describeAt(pos), "an array index or $variable");
            }
            String digits = input.substring(start, pos);
            if (digits.length() > 9) {
                throw error(start, "'" + digits + "'", "an array index below 1000000000");
            }
            element = new PathElement(PathElement.Kind.INDEX, String.valueOf(Integer.parseInt(digits)));
        }
        if (pos >= input.length() || input.charAt(pos) != ']') {
            throw error(pos, describeAt(pos), "']' closing the subscript opened at position " + open);
        }
        pos++;
        return element;
    }

    private String variableName() {
        int start = pos;
        if (pos >= input.length() || !isIdentifierStart(input.charAt(pos))) {
            throw error(pos, describeAt(pos), "a variable name");
        }
        while (pos < input.length() && isIdentifierPart(input.charAt(pos)) && input.charAt(pos) != '$') {
            pos++;
        }
        return input.substring(start, pos);
    }

    private String describeAt(int at) {
        return at >= input.length() ? "end of selection"
                                    : "'" + new String(Character.toChars(input.codePointAt(at))) + "'";
    }

    /** Reads a quoted string starting at {@code pos}, which holds {@code quote}, and returns its unescaped value. */
    private String string(char quote) {
        int start = pos++;
        StringBuilder value = new StringBuilder();
        while (pos < input.length()) {
            char c = input.charAt(pos);
            if (c == quote) {
                pos++;
                return value.toString();
            }
            if (c == '\\') {
                value.append(escape());
            } else {
                value.append(c);
                pos++;
            }
        }
        throw error(start, "unterminated string", "a closing " + quote);
    }

    private char escape() {
        int start = pos;
        if (pos + 1 >= input.length()) {
            throw error(start, "'\\' at end of selection", "an escape sequence");
        }
        char c = input.charAt(pos + 1);
        pos += 2;
        switch (c) {
            case '"': return '"';
            case '\'': return '\'';
            case '\\': return '\\';
            case 'n': return '\n';
            case 'r': return '\r';
            case 't': return '\t';
            case 'f': return '\f';
            case 'x':
                if (pos + 2 <= input.length() && isHex(input.charAt(pos)) && isHex(input.charAt(pos + 1))) {
                    char decoded = (char) Integer.parseInt(input.substring(pos, pos + 2), 16);
                    pos += 2;
                    return decoded;
                }
                throw error(start, "'" + input.substring(start, Math.min(input.length(), start + 4)) + "'",
                            "two hex digits after \\x");
            default:
                throw error(start, "'\\" + c + "'", "one of the escapes \\\" \\' \\\\ \\n \\r \\t \\f \\xHH");
        }
    }

    private static boolean isHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** Numbers follow Vespa's lexer: the longer of an integer (decimal, 0x-hex, 0-octal) and a float wins. */
    private Token number() {
        int start = pos;
        int integerEnd = integerEnd(start);
        int floatEnd = floatEnd(start);
        if (floatEnd > integerEnd) {
            pos = floatEnd;
            String text = input.substring(start, pos);
            String digits = text.endsWith("f") || text.endsWith("F") || text.endsWith("d") || text.endsWith("D")
                            ? text.substring(0, text.length() - 1) : text;
            return new Token(Kind.FLOAT, text, start, Double.parseDouble(digits), List.of());
        }
        pos = integerEnd;
        return new Token(Kind.INTEGER, input.substring(start, pos), start, null, List.of());
    }

    private int integerEnd(int start) {
        int end = start;
        if (input.charAt(start) == '0' && (peekAt(start + 1) == 'x' || peekAt(start + 1) == 'X')
            && start + 2 < input.length() && isHex(input.charAt(start + 2))) {
            end = start + 2;
            while (end < input.length() && isHex(input.charAt(end))) {
                end++;
            }
        } else if (input.charAt(start) == '0') {
            end = start + 1;
            while (end < input.length() && input.charAt(end) >= '0' && input.charAt(end) <= '7') {
                end++;
            }
        } else {
            while (end < input.length() && isDigit(input.charAt(end))) {
                end++;
            }
        }
        if (peekAt(end) == 'l' || peekAt(end) == 'L') {
            end++;
        }
        return end;
    }

    private int floatEnd(int start) {
        int end = start;
        while (end < input.length() && isDigit(input.charAt(end))) {
            end++;
        }
        if (peekAt(end) == '.') {
            end++;
            while (end < input.length() && isDigit(input.charAt(end))) {
                end++;
            }
        }
        if (peekAt(end) == 'e' || peekAt(end) == 'E') {
            int exponent = end + 1;
            if (peekAt(exponent) == '+' || peekAt(exponent) == '-') {
                exponent++;
            }
            if (isDigit(peekAt(exponent))) {
                end = exponent;
                while (end < input.length() && isDigit(input.charAt(end))) {
                    end++;
                }
            }
        }
        int suffix = peekAt(end);
        if (suffix == 'f' || suffix == 'F' || suffix == 'd' || suffix == 'D') {
            end++;
        }
        return end;
    }

    private int peekAt(int at) {
        return at < input.length() ? input.charAt(at) : -1;
    }

    private SelectionParseException error(int at, String found, String expected) {
        return new SelectionParseException(input, at, found, expected);
    }

}

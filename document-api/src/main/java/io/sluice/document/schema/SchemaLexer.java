package io.sluice.document.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a schema file into words, quoted strings and single-character symbols, dropping {@code #} line comments
 * and {@code /* ... *}{@code /} block comments. Words are runs of letters, digits and {@code _ - . $ @}.
 */
final class SchemaLexer {

    private final String file;
    private final String text;
    private int position;
    private int line = 1;
    private int lineStart;
    private int lastTokenLine;

    private SchemaLexer(String file, String text) {
        this.file = file;
        this.text = text;
    }

    /** All tokens of {@code text}, ending with one END token; throws {@link SchemaParseException} if malformed. */
    static List<Token> tokenize(String file, String text) {
        return new SchemaLexer(file, text).tokens();
    }

    private List<Token> tokens() {
        List<Token> tokens = new ArrayList<>();
        if (text.startsWith("\uFEFF")) {
            position = 1; // a byte order mark is not part of the text
            lineStart = 1;
        }
        while (true) {
            skipSpaceAndComments();
            if (position >= text.length()) {
                tokens.add(new Token(Token.Kind.END, "", line, column(), true));
                return tokens;
            }
            tokens.add(next());
        }
    }

    private Token next() {
        int startLine = line;
        int startColumn = column();
        boolean startsLine = startLine != lastTokenLine;
        lastTokenLine = startLine;
        char c = text.charAt(position);
        if (c == '"') return new Token(Token.Kind.STRING, string(startLine, startColumn), startLine, startColumn, startsLine);
        if (isWordChar(c)) {
            int start = position;
            while (position < text.length() && isWordChar(text.charAt(position))) position++;
            return new Token(Token.Kind.WORD, text.substring(start, position), startLine, startColumn, startsLine);
        }
        position++;
        return new Token(Token.Kind.SYMBOL, String.valueOf(c), startLine, startColumn, startsLine);
    }

    private String string(int startLine, int startColumn) {
        boolean triple = text.startsWith("\"\"\"", position);
        position += triple ? 3 : 1;
        StringBuilder value = new StringBuilder();
        while (position < text.length()) {
            char c = text.charAt(position);
            if (triple ? text.startsWith("\"\"\"", position) : c == '"') {
                position += triple ? 3 : 1;
                lastTokenLine = line;
                return value.toString();
            }
            if (c == '\\' && !triple && position + 1 < text.length()) {
                value.append(text.charAt(position + 1));
                advance(2);
                continue;
            }
            value.append(c);
            advance(1);
        }
        throw new SchemaParseException(file, startLine, startColumn, "Unterminated string");
    }

    private void skipSpaceAndComments() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (Character.isWhitespace(c)) {
                advance(1);
            } else if (c == '#') {
                while (position < text.length() && text.charAt(position) != '\n') position++;
            } else if (c == '/' && text.startsWith("/*", position)) {
                int startLine = line;
                int startColumn = column();
                int end = text.indexOf("*/", position + 2);
                if (end < 0) throw new SchemaParseException(file, startLine, startColumn, "Unterminated comment");
                advance(end + 2 - position);
            } else {
                return;
            }
        }
    }

    /** Moves forward {@code count} characters, keeping track of lines. */
    private void advance(int count) {
        for (int end = position + count; position < end; position++) {
            if (text.charAt(position) == '\n') {
                line++;
                lineStart = position + 1;
            }
        }
    }

    private int column() {
        return position - lineStart + 1;
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
               || c == '_' || c == '-' || c == '.' || c == '$' || c == '@' || (c > 127 && Character.isLetterOrDigit(c));
    }
}

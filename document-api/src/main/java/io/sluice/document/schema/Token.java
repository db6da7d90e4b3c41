package io.sluice.document.schema;

/**
 * One lexical token of a schema file. {@code startsLine} is true for the first token on a line, which is how the
 * parser finds the end of statements it skips.
 */
record Token(Kind kind, String text, int line, int column, boolean startsLine) {

    enum Kind { WORD, STRING, SYMBOL, END }

    boolean is(String word) {
        return kind != Kind.STRING && kind != Kind.END && text.equals(word);
    }

    boolean isSymbol(char symbol) {
        return kind == Kind.SYMBOL && text.charAt(0) == symbol;
    }

    String describe() {
        switch (kind) {
            case END: return "end of file";
            case STRING: return "string \"" + text + "\"";
            default: return "'" + text + "'";
        }
    }
}

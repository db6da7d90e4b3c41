package io.sluice.document.select;

import java.util.List;

/** One lexical token of a selection; {@code subscripts} holds the {@code {key}}/{@code [index]} parts of an identifier. */
record Token(Kind kind, String text, int position, Object value, List<Expression.PathElement> subscripts) {

    enum Kind {
        INTEGER, FLOAT, STRING, IDENTIFIER,
        LPAREN, RPAREN, PLUS, MINUS, STAR, SLASH, PERCENT, DOT, DOLLAR,
        EQ, NE, LT, GT, LE, GE, REGEX, GLOB,
        EOF
    }

    /** A keyword is an identifier without subscripts spelled like {@code keyword}, ignoring case. */
    boolean is(String keyword) {
        return kind == Kind.IDENTIFIER && subscripts.isEmpty() && text.equalsIgnoreCase(keyword);
    }

    /** How the token is shown in error messages. */
    String describe() {
        return kind == Kind.EOF ? "end of selection" : "'" + text + "'";
    }

}

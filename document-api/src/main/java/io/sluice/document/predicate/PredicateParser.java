package io.sluice.document.predicate;

import io.sluice.document.predicate.PredicateLexer.Kind;
import io.sluice.document.predicate.PredicateLexer.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Vespa's predicate syntax (its {@code Predicate.g} grammar):
 * <pre>
 * predicate   := disjunction END
 * disjunction := conjunction (OR conjunction)*
 * conjunction := unary (AND unary)*
 * unary       := NOT '(' disjunction ')' | '(' disjunction ')' | leaf
 * leaf        := value NOT? IN (set | range) | TRUE | FALSE
 * set         := '[' value (',' value)* ']'
 * range       := '[' INTEGER? '..' INTEGER? ('(' partition (',' partition)* ')')? ']'
 * partition   := value ('=' | '=-') INTEGER (INTEGER | '+[' INTEGER? '..' INTEGER? ']')
 * value       := WORD | INTEGER | STRING | a keyword
 * </pre>
 * Keywords are values where a value is expected, so {@code not in [a]} is the feature {@code not}. Range partitions
 * (what Vespa's indexer writes into ranges) are read and dropped, as Vespa does. One instance per text.
 */
final class PredicateParser {

    private final List<Token> tokens;
    private int next = 0;

    PredicateParser(String text) {
        this.tokens = PredicateLexer.tokens(text);
    }

    Predicate parse() {
        Predicate predicate = disjunction();
        expect(Kind.END, "'and', 'or' or end of input");
        return predicate;
    }

    private Predicate disjunction() {
        List<Predicate> operands = new ArrayList<>(List.of(conjunction()));
        while (accept(Kind.OR)) operands.add(conjunction());
        return operands.size() == 1 ? operands.get(0) : new Predicate.Disjunction(operands);
    }

    private Predicate conjunction() {
        List<Predicate> operands = new ArrayList<>(List.of(unary()));
        while (accept(Kind.AND)) operands.add(unary());
        return operands.size() == 1 ? operands.get(0) : new Predicate.Conjunction(operands);
    }

    private Predicate unary() {
        if (peek(0).kind() == Kind.NOT && peek(1).kind() == Kind.LEFT_PAREN) {
            next++;
            return new Predicate.Negation(parenthesized());
        }
        if (peek(0).kind() == Kind.LEFT_PAREN) return parenthesized();
        return leaf();
    }

    private Predicate parenthesized() {
        expect(Kind.LEFT_PAREN, "'('");
        Predicate inner = disjunction();
        expect(Kind.RIGHT_PAREN, "'and', 'or' or ')'");
        return inner;
    }

    private Predicate leaf() {
        Kind kind = peek(0).kind();
        Kind following = peek(1).kind();
        if ((kind == Kind.TRUE || kind == Kind.FALSE) && following != Kind.IN && following != Kind.NOT) {
            next++;
            return new Predicate.Constant(kind == Kind.TRUE);
        }
        String key = value("a feature key, 'true', 'false', 'not (' or '('");
        boolean negated = accept(Kind.NOT);
        expect(Kind.IN, negated ? "'in'" : "'in' or 'not in'");
        Predicate leaf = isRange() ? range(key) : set(key);
        return negated ? new Predicate.Negation(leaf) : leaf;
    }

    /** Whether the '[' ahead opens a range: it is followed by '..', or by an integer and '..'. */
    private boolean isRange() {
        return peek(1).kind() == Kind.DOTS || peek(1).kind() == Kind.INTEGER && peek(2).kind() == Kind.DOTS;
    }

    private Predicate set(String key) {
        expect(Kind.LEFT_BRACKET, "'['");
        List<String> values = new ArrayList<>();
        values.add(value("a value or a range"));
        while (accept(Kind.COMMA)) values.add(value("a value"));
        expect(Kind.RIGHT_BRACKET, "',' or ']'");
        return new Predicate.FeatureSet(key, values);
    }

    private Predicate range(String key) {
        Token start = expect(Kind.LEFT_BRACKET, "'['");
        Long from = peek(0).kind() == Kind.INTEGER ? integer() : null;
        expect(Kind.DOTS, "'..'");
        Long to = peek(0).kind() == Kind.INTEGER ? integer() : null;
        if (accept(Kind.LEFT_PAREN)) {
            partition();
            while (accept(Kind.COMMA)) partition();
            expect(Kind.RIGHT_PAREN, "',' or ')'");
        }
        expect(Kind.RIGHT_BRACKET, to == null ? "an integer, '(' or ']'" : "'(' or ']'");
        if (from != null && to != null && from > to)
            throw new PredicateParseException("Range at column " + start.column() + " of '" + key + "' ends ("
                                              + to + ") before it starts (" + from + ")");
        return new Predicate.FeatureRange(key, from, to);
    }

    /** A partition label such as {@code age=10-19} or {@code age=0+[..5]}: checked, not kept. */
    private void partition() {
        value("a range partition");
        if (!accept(Kind.EQUALS)) expect(Kind.EQUALS_MINUS, "'=' or '=-'");
        integer();
        if (accept(Kind.PLUS_BRACKET)) {
            if (peek(0).kind() == Kind.INTEGER) integer();
            expect(Kind.DOTS, "'..'");
            if (peek(0).kind() == Kind.INTEGER) integer();
            expect(Kind.RIGHT_BRACKET, "']'");
        } else {
            integer();
        }
    }

    private long integer() {
        Token token = expect(Kind.INTEGER, "an integer");
        try {
            return Long.parseLong(token.value());
        } catch (NumberFormatException e) {
            throw new PredicateParseException("Integer " + token.value() + " at column " + token.column()
                                              + " is out of range");
        }
    }

    private String value(String expected) {
        Token token = peek(0);
        if (!token.isValue()) throw unexpected(expected);
        next++;
        return token.value();
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(next + ahead, tokens.size() - 1));
    }

    private boolean accept(Kind kind) {
        if (peek(0).kind() != kind) return false;
        next++;
        return true;
    }

    private Token expect(Kind kind, String expected) {
        Token token = peek(0);
        if (token.kind() != kind) throw unexpected(expected);
        next++;
        return token;
    }

    private PredicateParseException unexpected(String expected) {
        Token token = peek(0);
        return new PredicateParseException("Expected " + expected + " at column " + token.column() + ", got "
                                           + token.describe());
    }
}

package io.sluice.document.select;

import io.sluice.document.select.Expression.And;
import io.sluice.document.select.Expression.Arithmetic;
import io.sluice.document.select.Expression.ArithmeticOperator;
import io.sluice.document.select.Expression.Comparison;
import io.sluice.document.select.Expression.ComparisonOperator;
import io.sluice.document.select.Expression.DocumentType;
import io.sluice.document.select.Expression.Field;
import io.sluice.document.select.Expression.FunctionCall;
import io.sluice.document.select.Expression.Id;
import io.sluice.document.select.Expression.Literal;
import io.sluice.document.select.Expression.Not;
import io.sluice.document.select.Expression.Now;
import io.sluice.document.select.Expression.Or;
import io.sluice.document.select.Expression.PathElement;
import io.sluice.document.select.Expression.Variable;
import io.sluice.document.select.Token.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Recursive-descent parser for the selection grammar: {@code and} binds tighter than {@code or}, {@code not} applies to
 * one relational term, arithmetic is left-associative with {@code %} above {@code * /} above {@code + -}.
 */
final class SelectionParser {

    private static final String VALUE = "a value (literal, id, now(), $variable, document type or '(')";
    private static final Map<String, Id.Part> ID_PARTS = Map.of(
            "scheme", Id.Part.SCHEME, "namespace", Id.Part.NAMESPACE, "type", Id.Part.TYPE,
            "specific", Id.Part.SPECIFIC, "user", Id.Part.USER, "group", Id.Part.GROUP, "bucket", Id.Part.BUCKET);
    // Bounds on tree depth, so evaluating and printing a parsed selection cannot overflow the stack.
    private static final int MAX_NESTING = 200;
    private static final int MAX_OPERATORS = 1000;

    private final String input;
    private final List<Token> tokens;
    private int index;
    private int depth;
    private int operators;

    private SelectionParser(String input) {
        this.input = input;
        this.tokens = new Lexer(input).tokens();
    }

    static Expression parse(String selection) {
        SelectionParser parser = new SelectionParser(selection);
        if (parser.peek().kind() == Kind.EOF) {
            return new Literal(true);
        }
        Expression expression = parser.logic();
        parser.expect(Kind.EOF, "'and', 'or', an operator or end of selection");
        return expression;
    }

    private Token peek() {
        return tokens.get(index);
    }

    private Token peek(int ahead) {
        return tokens.get(Math.min(index + ahead, tokens.size() - 1));
    }

    private Token advance() {
        Token token = tokens.get(index);
        if (token.kind() != Kind.EOF) {
            index++;
        }
        return token;
    }

    private Token expect(Kind kind, String expected) {
        if (peek().kind() != kind) {
            throw error(peek(), expected);
        }
        return advance();
    }

    private SelectionParseException error(Token at, String expected) {
        return new SelectionParseException(input, at.position(), at.describe(), expected);
    }

    private Expression logic() {
        List<Expression> operands = new ArrayList<>(List.of(conjunction()));
        while (peek().is("or")) {
            advance();
            operands.add(conjunction());
        }
        return operands.size() == 1 ? operands.get(0) : new Or(operands);
    }

    private Expression conjunction() {
        List<Expression> operands = new ArrayList<>(List.of(negation()));
        while (peek().is("and")) {
            advance();
            operands.add(negation());
        }
        return operands.size() == 1 ? operands.get(0) : new And(operands);
    }

    private Expression negation() {
        if (peek().is("not")) {
            advance();
            return new Not(relational());
        }
        return relational();
    }

    private Expression relational() {
        Expression left = arithmetic(1);
        ComparisonOperator operator = comparisonOperator(peek().kind());
        if (operator == null) {
            return left;
        }
        advance();
        Token rightStart = peek();
        Expression right = arithmetic(1);
        if (operator == ComparisonOperator.REGEX && right instanceof Literal && ((Literal) right).value() != null) {
            try {
                SelectionRegex.compile(String.valueOf(((Literal) right).value()));
            } catch (SelectionRegex.InvalidPattern e) {
                throw new SelectionParseException(input, rightStart.position(), rightStart.describe(),
                                                  "a valid RE2 regular expression (" + e.getMessage() + ")");
            }
        }
        return new Comparison(left, operator, right);
    }

    private static ComparisonOperator comparisonOperator(Kind kind) {
        switch (kind) {
            case EQ: return ComparisonOperator.EQ;
            case NE: return ComparisonOperator.NE;
            case LT: return ComparisonOperator.LT;
            case GT: return ComparisonOperator.GT;
            case LE: return ComparisonOperator.LE;
            case GE: return ComparisonOperator.GE;
            case REGEX: return ComparisonOperator.REGEX;
            case GLOB: return ComparisonOperator.GLOB;
            default: return null;
        }
    }

    private static ArithmeticOperator arithmeticOperator(Kind kind) {
        switch (kind) {
            case PLUS: return ArithmeticOperator.ADD;
            case MINUS: return ArithmeticOperator.SUBTRACT;
            case STAR: return ArithmeticOperator.MULTIPLY;
            case SLASH: return ArithmeticOperator.DIVIDE;
            case PERCENT: return ArithmeticOperator.MODULO;
            default: return null;
        }
    }

    /** Precedence climbing over the arithmetic operators, all left-associative. */
    private Expression arithmetic(int minimumPrecedence) {
        Expression left = attribute();
        while (true) {
            ArithmeticOperator operator = arithmeticOperator(peek().kind());
            if (operator == null || operator.precedence() < minimumPrecedence) {
                return left;
            }
            Token operatorToken = advance();
            if (++operators > MAX_OPERATORS) {
                throw error(operatorToken, "at most " + MAX_OPERATORS + " arithmetic operators and function calls");
            }
            left = new Arithmetic(left, operator, arithmetic(operator.precedence() + 1));
        }
    }

    private Expression attribute() {
        Token start = peek();
        Expression value = value();
        List<PathElement> path = new ArrayList<>();
        while (peek().kind() == Kind.DOT) {
            advance();
            Token name = peek();
            if (name.kind() != Kind.IDENTIFIER || name.is("not")) {
                throw error(name, "a field name or function after '.'");
            }
            advance();
            if (peek().kind() == Kind.LPAREN && name.subscripts().isEmpty()) {
                advance();
                expect(Kind.RPAREN, "')' closing the call of " + name.text() + "()");
                value = functionCall(finishField(value, path, start), name);
                path = new ArrayList<>();
                continue;
            }
            if (!(value instanceof DocumentType)) {
                throw error(name, "a function call such as lowercase() (fields are only reachable as doctype.field)");
            }
            path.add(new PathElement(PathElement.Kind.FIELD, (String) name.value()));
            path.addAll(name.subscripts());
        }
        return finishField(value, path, start);
    }

    private static Expression finishField(Expression value, List<PathElement> path, Token start) {
        if (path.isEmpty()) {
            return value;
        }
        return new Field(((DocumentType) value).name(), path, start.position());
    }

    private Expression functionCall(Expression target, Token name) {
        if (target instanceof DocumentType) {
            throw error(name, "a field name (functions apply to values, not to a document type)");
        }
        if (++operators > MAX_OPERATORS) {
            throw error(name, "at most " + MAX_OPERATORS + " arithmetic operators and function calls");
        }
        try {
            return new FunctionCall(target, FunctionCall.Function.valueOf(((String) name.value()).toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw error(name, "one of the functions abs(), hash(), lowercase(), uppercase()");
        }
    }

    private Expression value() {
        Token token = peek();
        switch (token.kind()) {
            case INTEGER:
                advance();
                return new Literal(integer(token, false));
            case FLOAT:
                advance();
                return new Literal(token.value());
            case STRING:
                advance();
                return new Literal(token.value());
            case MINUS:
                return negativeNumber();
            case PLUS:
                if (peek(1).kind() == Kind.FLOAT) {
                    advance();
                    return new Literal(advance().value());
                }
                throw error(peek(1), "a float literal after '+'");
            case DOLLAR:
                advance();
                Token name = peek();
                if (name.kind() != Kind.IDENTIFIER || !name.subscripts().isEmpty()) {
                    throw error(name, "a variable name after '$'");
                }
                advance();
                return new Variable(name.text());
            case LPAREN:
                return parenthesised();
            case IDENTIFIER:
                return identifierValue(token);
            default:
                throw error(token, VALUE);
        }
    }

    private Expression negativeNumber() {
        Token minus = advance();
        Token number = peek();
        if (number.kind() == Kind.INTEGER) {
            advance();
            return new Literal(integer(number, true));
        }
        if (number.kind() == Kind.FLOAT) {
            advance();
            return new Literal(-(Double) number.value());
        }
        throw error(number, "a number after '" + minus.text() + "'");
    }

    private Expression parenthesised() {
        Token open = advance();
        if (++depth > MAX_NESTING) {
            throw error(open, "at most " + MAX_NESTING + " nested parentheses");
        }
        Expression inner = logic();
        expect(Kind.RPAREN, "')' closing the '(' at position " + open.position());
        depth--;
        return inner;
    }

    private Expression identifierValue(Token token) {
        if (!token.subscripts().isEmpty()) {
            throw error(token, "a document type name without subscripts");
        }
        if (token.is("true") || token.is("false")) {
            advance();
            return new Literal(token.is("true"));
        }
        if (token.is("null")) {
            advance();
            return new Literal(null);
        }
        if (token.is("now") && peek(1).kind() == Kind.LPAREN) {
            advance();
            advance();
            expect(Kind.RPAREN, "')' after 'now('");
            return new Now();
        }
        if (token.is("id")) {
            advance();
            if (peek().kind() == Kind.DOT && peek(1).kind() == Kind.IDENTIFIER && peek(1).subscripts().isEmpty()) {
                Id.Part part = ID_PARTS.get(peek(1).text().toLowerCase(Locale.ROOT));
                if (part != null) {
                    advance();
                    advance();
                    return new Id(part);
                }
            }
            return new Id(Id.Part.WHOLE);
        }
        if (token.is("not") || token.is("and") || token.is("or")) {
            throw error(token, VALUE);
        }
        advance();
        return new DocumentType(token.text(), token.position());
    }

    private long integer(Token token, boolean negative) {
        String text = token.text();
        if (text.endsWith("l") || text.endsWith("L")) {
            text = text.substring(0, text.length() - 1);
        }
        try {
            if (text.length() > 2 && (text.charAt(1) == 'x' || text.charAt(1) == 'X')) {
                long value = Long.parseUnsignedLong(text.substring(2), 16);
                return negative ? -value : value;
            }
            if (text.length() > 1 && text.charAt(0) == '0') {
                long value = Long.parseUnsignedLong(text.substring(1), 8);
                return negative ? -value : value;
            }
            return Long.parseLong(negative ? "-" + text : text);
        } catch (NumberFormatException e) {
            throw error(token, "an integer within 64 bits");
        }
    }

}

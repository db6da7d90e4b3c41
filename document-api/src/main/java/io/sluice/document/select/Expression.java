package io.sluice.document.select;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A node of a parsed document selection. Nodes are immutable records; {@link #toString()} renders a selection string
 * that parses back to an equal tree (logical and comparison operators parenthesised, arithmetic only where needed).
 */
public sealed interface Expression {

    /** The nodes directly below {@code node}: operands, sides, a function's target; none for a leaf. */
    static List<Expression> children(Expression node) {
        if (node instanceof And) {
            return ((And) node).operands();
        }
        if (node instanceof Or) {
            return ((Or) node).operands();
        }
        if (node instanceof Not) {
            return List.of(((Not) node).operand());
        }
        if (node instanceof Comparison) {
            return List.of(((Comparison) node).left(), ((Comparison) node).right());
        }
        if (node instanceof Arithmetic) {
            return List.of(((Arithmetic) node).left(), ((Arithmetic) node).right());
        }
        if (node instanceof FunctionCall) {
            return List.of(((FunctionCall) node).target());
        }
        return List.of();
    }

    /** A literal: a {@link Long}, {@link Double}, {@link String}, {@link Boolean}, or {@code null}. */
    record Literal(Object value) implements Expression {
        @Override
        public String toString() {
            if (value instanceof String) {
                return Quoting.quote((String) value);
            }
            if (value instanceof Double && ((Double) value).isInfinite()) {
                return (Double) value > 0 ? "1e999" : "-1e999";
            }
            return String.valueOf(value);
        }
    }

    /**
     * A bare document type name: true for documents of that type or a type inheriting it. {@code position} is where it
     * appeared in the source, for error messages; it takes no part in equality.
     */
    record DocumentType(String name, int position) implements Expression {
        @Override
        public boolean equals(Object other) {
            return other instanceof DocumentType && ((DocumentType) other).name.equals(name);
        }

        @Override
        public int hashCode() {
            return name.hashCode();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * {@code doctype.path}: the value at a field path, for documents of {@code documentType} only. {@code position} is
     * where it appeared in the source, for error messages; it takes no part in equality.
     */
    record Field(String documentType, List<PathElement> path, int position) implements Expression {
        public Field {
            path = List.copyOf(path);
            if (path.isEmpty() || path.get(0).kind() != PathElement.Kind.FIELD) {
                throw new IllegalArgumentException("A field path starts with a field name, but was " + path);
            }
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Field && ((Field) other).documentType.equals(documentType)
                   && ((Field) other).path.equals(path);
        }

        @Override
        public int hashCode() {
            return Objects.hash(documentType, path);
        }

        /** The path without the document type, e.g. {@code m{"k"}.title}. */
        public String pathString() {
            StringBuilder out = new StringBuilder();
            for (PathElement element : path) {
                if (element.kind() == PathElement.Kind.FIELD && out.length() > 0) {
                    out.append('.');
                }
                out.append(element);
            }
            return out.toString();
        }

        /** The top-level field the path starts with. */
        public String fieldName() {
            return path.get(0).name();
        }

        @Override
        public String toString() {
            return documentType + "." + pathString();
        }
    }

    /**
     * One step of a field path: a struct field or top-level field ({@code .name}), a map or weighted-set key
     * ({@code {key}}), an array index ({@code [3]}), or a variable in either brackets, which ranges over every key or
     * index.
     */
    record PathElement(Kind kind, String name) {
        /** What the step selects. */
        public enum Kind { FIELD, KEY, INDEX, KEY_VARIABLE, INDEX_VARIABLE }

        public PathElement {
            Objects.requireNonNull(kind);
            Objects.requireNonNull(name);
        }

        @Override
        public String toString() {
            switch (kind) {
                case FIELD: return name;
                case KEY: return "{" + Quoting.quoteDouble(name) + "}";
                case INDEX: return "[" + name + "]";
                case KEY_VARIABLE: return "{$" + name + "}";
                default: return "[$" + name + "]";
            }
        }
    }

    /** {@code id} or one of its parts. */
    record Id(Part part) implements Expression {
        /** Which part of the id; {@code WHOLE} is the full id string. */
        public enum Part { WHOLE, SCHEME, NAMESPACE, TYPE, SPECIFIC, USER, GROUP, BUCKET }

        @Override
        public String toString() {
            return part == Part.WHOLE ? "id" : "id." + part.name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code now()}: the current time in epoch seconds. */
    record Now() implements Expression {
        @Override
        public String toString() {
            return "now()";
        }
    }

    /** {@code $name}: a variable; outside a field path it has no value and evaluates as invalid. */
    record Variable(String name) implements Expression {
        @Override
        public String toString() {
            return "$" + name;
        }
    }

    /**
     * {@code target.function()}: {@code lowercase()}/{@code uppercase()} of a value's string form, {@code abs()} of a
     * number, {@code hash()} = the first eight bytes of the MD5 of the UTF-8 string form, little-endian, as a signed
     * long. Applied to a multi-valued target, the function maps every value.
     */
    record FunctionCall(Expression target, Function function) implements Expression {
        /** The supported value functions. */
        public enum Function { LOWERCASE, UPPERCASE, HASH, ABS }

        @Override
        public String toString() {
            // A bare number literal would lex together with the dot ("5." is a float), so parenthesise literals.
            // An arithmetic target prints without outer parentheses, so it needs them here to stay the call's target.
            String targetText = target instanceof Literal || target instanceof Arithmetic ? "(" + target + ")" : target.toString();
            return targetText + "." + function.name().toLowerCase(Locale.ROOT) + "()";
        }
    }

    /** {@code left op right} with {@code + - * / %}. */
    record Arithmetic(Expression left, ArithmeticOperator operator, Expression right) implements Expression {
        @Override
        public String toString() {
            // Operators are left-associative: the left operand needs parentheses only if it binds looser, the right one
            // also if it binds equally. A long chain thus prints as flat as it was written, within the parser's nesting cap.
            return operand(left, operator.precedence()) + " " + operator.symbol() + " " + operand(right, operator.precedence() + 1);
        }

        private static String operand(Expression operand, int minimumPrecedence) {
            return operand instanceof Arithmetic arithmetic && arithmetic.operator().precedence() < minimumPrecedence
                   ? "(" + operand + ")" : operand.toString();
        }
    }

    /** {@code left op right} with a comparison operator. */
    record Comparison(Expression left, ComparisonOperator operator, Expression right) implements Expression {
        @Override
        public String toString() {
            return "(" + left + " " + operator.symbol() + " " + right + ")";
        }
    }

    /** {@code a and b and ...}: at least two operands, evaluated left to right. */
    record And(List<Expression> operands) implements Expression {
        public And {
            operands = List.copyOf(operands);
            if (operands.size() < 2) {
                throw new IllegalArgumentException("'and' needs at least two operands, got " + operands.size());
            }
        }

        @Override
        public String toString() {
            return "(" + String.join(" and ", operands.stream().map(Expression::toString).toList()) + ")";
        }
    }

    /** {@code a or b or ...}: at least two operands, evaluated left to right. */
    record Or(List<Expression> operands) implements Expression {
        public Or {
            operands = List.copyOf(operands);
            if (operands.size() < 2) {
                throw new IllegalArgumentException("'or' needs at least two operands, got " + operands.size());
            }
        }

        @Override
        public String toString() {
            return "(" + String.join(" or ", operands.stream().map(Expression::toString).toList()) + ")";
        }
    }

    /** {@code not operand}. */
    record Not(Expression operand) implements Expression {
        @Override
        public String toString() {
            return "(not " + operand + ")";
        }
    }

    /** Arithmetic operators; {@code %} binds tightest, then {@code * /}, then {@code + -}. */
    enum ArithmeticOperator {
        ADD("+", 1), SUBTRACT("-", 1), MULTIPLY("*", 2), DIVIDE("/", 2), MODULO("%", 3);

        private final String symbol;
        private final int precedence;

        ArithmeticOperator(String symbol, int precedence) {
            this.symbol = symbol;
            this.precedence = precedence;
        }

        public String symbol() {
            return symbol;
        }

        int precedence() {
            return precedence;
        }
    }

    /** Comparison operators; {@code =} is a glob match and {@code =~} a regular expression search. */
    enum ComparisonOperator {
        EQ("=="), NE("!="), LT("<"), GT(">"), LE("<="), GE(">="), REGEX("=~"), GLOB("=");

        private final String symbol;

        ComparisonOperator(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

}

package io.sluice.document.select;

import io.sluice.document.select.Expression.And;
import io.sluice.document.select.Expression.Arithmetic;
import io.sluice.document.select.Expression.ArithmeticOperator;
import io.sluice.document.select.Expression.Comparison;
import io.sluice.document.select.Expression.ComparisonOperator;
import io.sluice.document.select.Expression.DocumentType;
import io.sluice.document.select.Expression.Field;
import io.sluice.document.select.Expression.Id;
import io.sluice.document.select.Expression.Literal;
import io.sluice.document.select.Expression.Not;
import io.sluice.document.select.Expression.Or;
import io.sluice.document.select.Expression.PathElement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SelectionParserTest {

    private static Expression parse(String selection) {
        return DocumentSelection.parse(selection).expression();
    }

    private static SelectionParseException parseError(String selection) {
        return assertThrows(SelectionParseException.class, () -> DocumentSelection.parse(selection));
    }

    @Test
    void parse_empty_isTrue() {
        assertEquals(new Literal(true), parse("  "));
    }

    @Test
    void parse_andBindsTighterThanOr() {
        Expression expression = parse("a or b and c");
        assertEquals(new Or(List.of(new DocumentType("a", 0),
                                    new And(List.of(new DocumentType("b", 5), new DocumentType("c", 11))))),
                     expression);
    }

    @Test
    void parse_notAppliesToOneTerm() {
        Or or = assertInstanceOf(Or.class, parse("not a or b"));
        assertInstanceOf(Not.class, or.operands().get(0));
    }

    @Test
    void parse_keywordsIgnoreCase() {
        assertEquals(parse("true and not false or null == null"), parse("TRUE AND NOT False Or NULL == Null"));
    }

    @Test
    void parse_moduloBindsTighterThanMultiply() {
        Arithmetic product = assertInstanceOf(Arithmetic.class, parse("2 * 7 % 4"));
        assertEquals(ArithmeticOperator.MULTIPLY, product.operator());
        assertEquals(new Arithmetic(new Literal(7L), ArithmeticOperator.MODULO, new Literal(4L)), product.right());
    }

    @Test
    void parse_multiplyBindsTighterThanAdd() {
        Arithmetic sum = assertInstanceOf(Arithmetic.class, parse("1 + 2 * 3"));
        assertEquals(ArithmeticOperator.ADD, sum.operator());
    }

    @Test
    void parse_subtractIsLeftAssociative() {
        Arithmetic outer = assertInstanceOf(Arithmetic.class, parse("10 - 4 - 3"));
        assertEquals(new Literal(3L), outer.right());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "== | EQ", "!= | NE", "< | LT", "> | GT", "<= | LE", ">= | GE", "=~ | REGEX", "= | GLOB"})
    void parse_comparisonOperators(String symbol, ComparisonOperator operator) {
        Comparison comparison = assertInstanceOf(Comparison.class, parse("music.a " + symbol + " 'x'"));
        assertEquals(operator, comparison.operator());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "42 | 42", "0x1F | 31", "017 | 15", "0 | 0", "7L | 7", "-5 | -5",
            "0xe96b22a03842cac4 | -1627168768830289212", "-9223372036854775808 | -9223372036854775808"})
    void parse_integerLiterals(String text, long value) {
        assertEquals(new Literal(value), parse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1.5 | 1.5", "2e3 | 2000.0", "1.5f | 1.5", "-0.25 | -0.25", "+2.5 | 2.5", "08 | 8.0", "3. | 3.0"})
    void parse_floatLiterals(String text, double value) {
        assertEquals(new Literal(value), parse(text));
    }

    @Test
    void parse_stringEscapes() {
        assertEquals(new Literal("a\"b'c\\d\ne\rf\tg\fh\u0041"), parse("\"a\\\"b\\'c\\\\d\\ne\\rf\\tg\\fh\\x41\""));
    }

    @Test
    void parse_singleQuotedString() {
        assertEquals(new Literal("it's"), parse("'it\\'s'"));
    }

    @Test
    void parse_idParts() {
        assertEquals(new Id(Id.Part.WHOLE), parse("id"));
        assertEquals(new Id(Id.Part.USER), parse("id.user"));
        assertEquals(new Id(Id.Part.GROUP), parse("ID.Group"));
        assertEquals(new Id(Id.Part.NAMESPACE), parse("id.namespace"));
        assertEquals(new Id(Id.Part.SPECIFIC), parse("id.specific"));
        assertEquals(new Id(Id.Part.SCHEME), parse("id.scheme"));
        assertEquals(new Id(Id.Part.TYPE), parse("id.type"));
        assertEquals(new Id(Id.Part.BUCKET), parse("id.bucket"));
    }

    @Test
    void parse_fieldPathWithSubscripts() {
        Field field = assertInstanceOf(Field.class, parse("music.m{key}.list[3].s{\"a b\"}{$k}[$i]"));
        assertEquals("music", field.documentType());
        assertEquals(List.of(new PathElement(PathElement.Kind.FIELD, "m"),
                             new PathElement(PathElement.Kind.KEY, "key"),
                             new PathElement(PathElement.Kind.FIELD, "list"),
                             new PathElement(PathElement.Kind.INDEX, "3"),
                             new PathElement(PathElement.Kind.FIELD, "s"),
                             new PathElement(PathElement.Kind.KEY, "a b"),
                             new PathElement(PathElement.Kind.KEY_VARIABLE, "k"),
                             new PathElement(PathElement.Kind.INDEX_VARIABLE, "i")),
                     field.path());
    }

    @Test
    void parse_keywordAsFieldName() {
        Field field = assertInstanceOf(Field.class, parse("music.type"));
        assertEquals("type", field.fieldName());
    }

    @Test
    void parse_hyphenBelongsToIdentifier() {
        assertEquals("year-1", assertInstanceOf(Field.class, parse("music.year-1")).fieldName());
    }

    @Test
    void parse_functionOnField() {
        assertEquals("music.title.lowercase()", parse("music.title.lowercase()").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "music.year > 2000 and not (id.namespace == \"a\\\"b\" or music.t =~ \"^x\")",
            "music.m{\"k\"}[2].f.abs() + 3 * now() % 7 - -1.5 != $v",
            "id.user == 123 or id.group = 'g*' or id == \"id:ns:t::1\"",
            "music or null == true"})
    void toString_reparsesToEqualTree(String selection) {
        Expression expression = parse(selection);
        assertEquals(expression, parse(expression.toString()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1 / 2 / 3 / 4 == 0                 | (1 / 2 / 3 / 4 == 0)",
            "1 - (2 - 3) == 0                   | (1 - (2 - 3) == 0)",
            "(1 + 2) * 3 % 4 == 0               | ((1 + 2) * 3 % 4 == 0)",
            "(music.year + 1).abs() == 2        | ((music.year + 1).abs() == 2)"})
    void toString_parenthesisesArithmeticOnlyWhereNeeded(String selection, String printed) {
        assertEquals(printed, parse(selection).toString());
        assertEquals(parse(selection), parse(printed));
    }

    @Test
    void toString_ofLongOperatorChain_reparsesWithinNestingLimit() {
        String chain = "music.year" + " / 2".repeat(250) + " == 0"; // more operators than the 200 nesting levels allowed
        String printed = parse(chain).toString();
        assertEquals("(" + chain + ")", printed);
        assertEquals(printed, parse(printed).toString());
    }

    @Test
    void parseError_namesPositionAndExpectation() {
        SelectionParseException e = parseError("music.year == ");
        assertEquals(14, e.position());
        assertEquals("Unexpected end of selection at position 14 in selection 'music.year == ': expected "
                     + "a value (literal, id, now(), $variable, document type or '(')", e.getMessage());
    }

    @Test
    void parseError_trailingToken() {
        SelectionParseException e = parseError("a b");
        assertEquals(2, e.position());
        assertEquals("'and', 'or', an operator or end of selection", e.expected());
    }

    @Test
    void parseError_unclosedParenthesis() {
        SelectionParseException e = parseError("(a or b");
        assertEquals(7, e.position());
        assertEquals("')' closing the '(' at position 0", e.expected());
    }

    @Test
    void parseError_unterminatedString() {
        assertEquals(8, parseError("music.a=\"abc").position());
    }

    @Test
    void parseError_unknownEscape() {
        assertEquals(4, parseError("'abc\\q'").position());
    }

    @Test
    void parseError_unknownCharacter() {
        assertEquals(8, parseError("music.a # 1").position());
    }

    @Test
    void parseError_unknownFunction() {
        SelectionParseException e = parseError("music.a.frobnicate()");
        assertEquals(8, e.position());
        assertEquals("one of the functions abs(), hash(), lowercase(), uppercase()", e.expected());
    }

    @Test
    void parseError_fieldOfNonDocument() {
        assertEquals(3, parseError("id.foo").position());
    }

    @Test
    void parseError_invalidRegex() {
        assertEquals(11, parseError("music.a =~ '('").position());
    }

    @Test
    void regex_lookAroundAndBackReferences_areNotRe2() {
        assertEquals(11, parseError("music.a =~ 'a(?=b)'").position());
        assertEquals(11, parseError("music.a =~ '(a)\\\\1'").position());
        assertTrue(parseError("music.a =~ 'a(?=b)'").getMessage().contains("RE2"));
    }

    @Test
    void regex_expandingToHugePrograms_isRefusedBeforeCompiling() {
        SelectionParseException e = parseError("music.a =~ '((a{1000}){1000}){1000}'");
        assertEquals(11, e.position());
        assertTrue(e.getMessage().contains("expand"), e.getMessage());
        parseError("music.a =~ '(abcdefghij){1001}'");
        SelectionParser.parse("music.a =~ '[a-z]{1000}'");
        SelectionParser.parse("music.a =~ '(ab|cd){500}x{3,}\\\\{5}'");
    }

    @Test
    void parseError_integerOverflow() {
        assertEquals(0, parseError("99999999999999999999").position());
    }

    @Test
    void parseError_notWithoutOperand() {
        assertEquals(4, parseError("not and").position());
    }

    @Test
    void parseError_unclosedSubscript() {
        assertEquals(9, parseError("music.m{a").position());
    }

    @Test
    void parseError_tooDeeplyNested() {
        String selection = "(".repeat(300) + "true" + ")".repeat(300);
        assertEquals(200, parseError(selection).position());
    }

    @Test
    void parse_longOrChain_isFlat() {
        String selection = String.join(" or ", java.util.Collections.nCopies(5000, "id.user == 1"));
        assertEquals(5000, assertInstanceOf(Or.class, parse(selection)).operands().size());
    }

}

package io.sluice.document.predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.document.predicate.Predicate.Conjunction;
import io.sluice.document.predicate.Predicate.Constant;
import io.sluice.document.predicate.Predicate.Disjunction;
import io.sluice.document.predicate.Predicate.FeatureRange;
import io.sluice.document.predicate.Predicate.FeatureSet;
import io.sluice.document.predicate.Predicate.Negation;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PredicateParserTest {

    private static FeatureSet set(String key, String... values) {
        return new FeatureSet(key, List.of(values));
    }

    private static Conjunction and(Predicate... operands) {
        return new Conjunction(List.of(operands));
    }

    private static Disjunction or(Predicate... operands) {
        return new Disjunction(List.of(operands));
    }

    @Test
    void parse_featureSet_keepsValuesSortedAndDistinct() {
        assertEquals(set("gender", "Female", "Male"), Predicate.parse("gender in [Male, Female, Male]"));
    }

    @Test
    void parse_ranges_allowOpenBoundsAndSigns() {
        assertEquals(new FeatureRange("age", 20L, 30L), Predicate.parse("age in [20..30]"));
        assertEquals(new FeatureRange("age", null, 30L), Predicate.parse("age in [..30]"));
        assertEquals(new FeatureRange("age", -20L, null), Predicate.parse("age in [-20..]"));
        assertEquals(new FeatureRange("age", 5L, 5L), Predicate.parse("age in [+5..5]"));
        assertEquals(new FeatureRange("age", null, null), Predicate.parse("age in [..]"));
        assertEquals(new FeatureRange("n", Long.MIN_VALUE, Long.MAX_VALUE),
                     Predicate.parse("n in [-9223372036854775808..9223372036854775807]"));
    }

    @Test
    void parse_rangePartitions_areReadAndDropped() {
        assertEquals(new FeatureRange("age", 20L, 30L), Predicate.parse("age in [20..30 (age=20-29,age=30+[..0])]"));
        assertEquals(new FeatureRange("age", -9L, null), Predicate.parse("age in [-9.. (age=-0-9)]"));
    }

    @Test
    void parse_integerInBrackets_isASetValueUnlessARangeFollows() {
        assertEquals(set("n", "5"), Predicate.parse("n in [5]"));
        assertEquals(set("n", "-5", "6"), Predicate.parse("n in [-5, 6]"));
    }

    @Test
    void parse_notIn_negatesTheLeaf() {
        assertEquals(new Negation(set("a", "b")), Predicate.parse("a not in [b]"));
        assertEquals(new Negation(new FeatureRange("a", 1L, 2L)), Predicate.parse("a NOT IN [1..2]"));
    }

    @Test
    void parse_andBindsTighterThanOr() {
        assertEquals(or(set("a", "1"), and(set("b", "2"), set("c", "3")), set("d", "4")),
                     Predicate.parse("a in [1] or b in [2] and c in [3] or d in [4]"));
    }

    @Test
    void parse_parenthesesAndNot_nest() {
        assertEquals(and(or(set("a", "1"), set("b", "2")), new Negation(or(set("c", "3"), new Constant(true)))),
                     Predicate.parse("(a in [1] or b in [2]) and not (c in [3] or true)"));
        assertEquals(and(and(set("a", "1"), set("b", "2")), set("c", "3")),
                     Predicate.parse("((a in [1] and b in [2])) and c in [3]"));
    }

    @Test
    void parse_constants() {
        assertEquals(new Constant(true), Predicate.parse("true"));
        assertEquals(new Constant(false), Predicate.parse(" FALSE\t"));
        assertEquals(or(new Constant(false), new Constant(true)), Predicate.parse("false or true"));
    }

    @Test
    void parse_keywordsInLowerOrUpperCase_butMixedCaseIsAWord() {
        assertEquals(and(set("a", "1"), set("b", "2")), Predicate.parse("a IN [1] AND b in [2]"));
        assertEquals(or(set("a", "1"), set("b", "2")), Predicate.parse("a in [1] OR b in [2]"));
        PredicateParseException e = assertThrows(PredicateParseException.class,
                                                 () -> Predicate.parse("a in [1] And b in [2]"));
        assertEquals("Expected 'and', 'or' or end of input at column 10, got 'And'", e.getMessage());
    }

    @Test
    void parse_keywordsAndIntegers_areKeysAndValuesWhereTheyFit() {
        assertEquals(set("not", "in", "or"), Predicate.parse("not in [or, in]"));
        assertEquals(new Negation(set("not", "and")), Predicate.parse("not not in [and]"));
        assertEquals(set("true", "false"), Predicate.parse("true in [false]"));
        assertEquals(new Negation(set("FALSE", "TRUE")), Predicate.parse("FALSE not in [TRUE]"));
        assertEquals(set("42", "a_b", "07"), Predicate.parse("42 in [a_b, 07]"));
    }

    @Test
    void parse_quotedStrings_decodeEscapes() {
        assertEquals(set("my key", "it's", "say \"hi\""), Predicate.parse("'my key' in ['it\\'s', \"say \\\"hi\\\"\"]"));
        assertEquals(set("k", "a\\b", "\t\n\r\f", "é", "q"), Predicate.parse("k in ['a\\\\b', '\\t\\n\\r\\f', '\\xC3\\xA9', '\\q']"));
        assertEquals(set("", "ü and ' \""), Predicate.parse("'' in ['ü and \\' \"']"));
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("", "Expected a feature key, 'true', 'false', 'not (' or '(' at column 1, got end of input"),
                Arguments.of("gender", "Expected 'in' or 'not in' at column 7, got end of input"),
                Arguments.of("gender = [a]", "Expected 'in' or 'not in' at column 8, got '='"),
                Arguments.of("a not [b]", "Expected 'in' at column 7, got '['"),
                Arguments.of("a in b", "Expected '[' at column 6, got 'b'"),
                Arguments.of("a in []", "Expected a value or a range at column 7, got ']'"),
                Arguments.of("a in [b,]", "Expected a value at column 9, got ']'"),
                Arguments.of("a in [b c]", "Expected ',' or ']' at column 9, got 'c'"),
                Arguments.of("a in [b", "Expected ',' or ']' at column 8, got end of input"),
                Arguments.of("a in [1..b]", "Expected an integer, '(' or ']' at column 10, got 'b'"),
                Arguments.of("a in [1..2", "Expected '(' or ']' at column 11, got end of input"),
                Arguments.of("a in [30..20]", "Range at column 6 of 'a' ends (20) before it starts (30)"),
                Arguments.of("a in [..99999999999999999999]",
                             "Integer 99999999999999999999 at column 9 is out of range"),
                Arguments.of("a in [1..2 (b)]", "Expected '=' or '=-' at column 14, got ')'"),
                Arguments.of("a in [1..2 (b=1)]", "Expected an integer at column 16, got ')'"),
                Arguments.of("a in [1..2 (b=1+[..2)]", "Expected ']' at column 21, got ')'"),
                Arguments.of("a in [1..2 (b=1-2]", "Expected ',' or ')' at column 18, got ']'"),
                Arguments.of("a in [1] b in [2]", "Expected 'and', 'or' or end of input at column 10, got 'b'"),
                Arguments.of("a in [1] and", "Expected a feature key, 'true', 'false', 'not (' or '(' at column 13, "
                                             + "got end of input"),
                Arguments.of("(a in [1]", "Expected 'and', 'or' or ')' at column 10, got end of input"),
                Arguments.of("not (a in [1]) )", "Expected 'and', 'or' or end of input at column 16, got ')'"),
                Arguments.of("true false", "Expected 'and', 'or' or end of input at column 6, got 'false'"),
                Arguments.of("a in [b] and\nc in [d]", "Unexpected character U+000A at column 13"),
                Arguments.of("a in [b.c]", "Unexpected character '.' at column 8"),
                Arguments.of("a in [b] && c in [d]", "Unexpected character '&' at column 10"),
                Arguments.of("a in ['b]", "String starting at column 7 does not end"),
                Arguments.of("a in ['b\\", "String starting at column 7 does not end"),
                Arguments.of("a in ['\\xZ1']", "Expected two hex digits after '\\x' at column 8"),
                Arguments.of("a in [\"x\"] or", "Expected a feature key, 'true', 'false', 'not (' or '(' at column 14, "
                                                + "got end of input"),
                Arguments.of("a in ['x' 'y']", "Expected ',' or ']' at column 11, got string 'y'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void parse_invalidText_namesColumnAndExpectation(String text, String message) {
        PredicateParseException e = assertThrows(PredicateParseException.class, () -> Predicate.parse(text));
        assertEquals(message, e.getMessage());
    }
}

package io.sluice.document.predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.document.predicate.Predicate.Conjunction;
import io.sluice.document.predicate.Predicate.Constant;
import io.sluice.document.predicate.Predicate.Disjunction;
import io.sluice.document.predicate.Predicate.FeatureRange;
import io.sluice.document.predicate.Predicate.FeatureSet;
import io.sluice.document.predicate.Predicate.Negation;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PredicatePrinterTest {

    static Stream<Arguments> canonical() {
        return Stream.of(
                Arguments.of("gender in [Female] and age in [20..30]", "gender in [Female] and age in [20..30]"),
                Arguments.of("gender  IN [Male,Female]", "gender in [Female, Male]"),
                Arguments.of("age in [..30] OR age in [40..]", "age in [..30] or age in [40..]"),
                Arguments.of("age in [+20..+30]", "age in [20..30]"),
                Arguments.of("a not in [x]", "a not in [x]"),
                Arguments.of("a not in [1..2]", "not (a in [1..2])"),
                Arguments.of("not (a in [x])", "a not in [x]"),
                Arguments.of("NOT (a in [x] or b in [y])", "not (a in [x] or b in [y])"),
                Arguments.of("not (not (a in [x]))", "not (a not in [x])"),
                Arguments.of("(a in [1] or b in [2]) and c in [3]", "(a in [1] or b in [2]) and c in [3]"),
                Arguments.of("a in [1] and b in [2] or c in [3]", "(a in [1] and b in [2]) or c in [3]"),
                Arguments.of("(a in [1] and b in [2]) and c in [3]", "a in [1] and b in [2] and c in [3]"),
                Arguments.of("((a in [1] or b in [2]) or c in [3])", "a in [1] or b in [2] or c in [3]"),
                Arguments.of("(true)", "true"),
                Arguments.of("TRUE and not (FALSE)", "true and not (false)"),
                Arguments.of("a_b in ['c-d', 'e f', \"g'h\"]", "'a_b' in ['c-d', 'e f', 'g\\x27h']"),
                Arguments.of("k in ['tab\\there', 'back\\\\slash', 'é', '\\xF0\\x9F\\x98\\x80']",
                             "k in ['back\\\\slash', 'tab\\there', '\\xC3\\xA9', '\\xF0\\x9F\\x98\\x80']"),
                Arguments.of("k in ['\\f\\n\\r\\x01\\x7F']", "k in ['\\f\\n\\r\\x01\\x7F']"),
                Arguments.of("in in [not, 42, -1, 07]", "in in ['-1', 07, 42, not]"),
                Arguments.of("'' in ['']", "'' in ['']"),
                Arguments.of("age in [20..30 (age=20-29)]", "age in [20..30]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("canonical")
    void toString_isVespasCanonicalForm_andParsesBackToTheSame(String text, String canonical) {
        Predicate predicate = Predicate.parse(text);
        assertEquals(canonical, predicate.toString());
        assertEquals(canonical, Predicate.parse(canonical).toString());
    }

    @Test
    void parse_ofPrinted_isEqual_forRandomPredicates() {
        Random random = new Random(18);
        for (int i = 0; i < 2000; i++) {
            Predicate predicate = random(random, 3);
            assertEquals(predicate, Predicate.parse(predicate.toString()), predicate.toString());
        }
    }

    /** A predicate without directly nested conjunctions or disjunctions, which print flat. */
    private static Predicate random(Random random, int depth) {
        int kind = random.nextInt(depth == 0 ? 3 : 6);
        switch (kind) {
            case 0: {
                List<String> values = new ArrayList<>();
                for (int n = random.nextInt(3); n >= 0; n--) values.add(text(random));
                return new FeatureSet(text(random), values);
            }
            case 1: {
                Long from = random.nextBoolean() ? null : (long) random.nextInt(100) - 50;
                Long to = random.nextBoolean() ? null : (from == null ? 0 : from) + random.nextInt(100);
                return new FeatureRange(text(random), from, to);
            }
            case 2: return new Constant(random.nextBoolean());
            case 3: return new Negation(random(random, depth - 1));
            default: {
                boolean and = kind == 4;
                List<Predicate> operands = new ArrayList<>();
                for (int n = 1 + random.nextInt(3); n >= 0; n--) {
                    Predicate operand = random(random, depth - 1);
                    boolean sameKind = and ? operand instanceof Conjunction : operand instanceof Disjunction;
                    operands.add(sameKind ? new Negation(operand) : operand);
                }
                return and ? new Conjunction(operands) : new Disjunction(operands);
            }
        }
    }

    private static final String[] TEXTS = { "a", "Z9", "07", "-3", "in", "OR", "true", "not", "a_b", "x y", "'",
                                            "\"", "\\", "é", "\ud83d\ude00", "\n", "", "\u007f", "a'b\\c" };

    private static String text(Random random) {
        return TEXTS[random.nextInt(TEXTS.length)] + (random.nextInt(4) == 0 ? TEXTS[random.nextInt(TEXTS.length)] : "");
    }
}

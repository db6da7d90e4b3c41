package io.sluice.document.predicate;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A value of a {@code predicate} field: a boolean constraint over a document's features, such as
 * {@code gender in [Female] and age in [20..30]}. {@link #parse} reads Vespa's predicate syntax; {@link #toString()}
 * is Vespa's canonical form of the same predicate, which {@link #parse} reads back to an equal predicate (up to
 * nested conjunctions or disjunctions, which print flat).
 */
public sealed interface Predicate {

    /**
     * The predicate {@code text} describes.
     *
     * @throws PredicateParseException naming the column and what was expected there, if {@code text} is not one
     */
    static Predicate parse(String text) {
        return new PredicateParser(text).parse();
    }

    /** {@code key in [values...]}: the feature has one of the values. Values are kept sorted and distinct. */
    record FeatureSet(String key, List<String> values) implements Predicate {

        public FeatureSet {
            Objects.requireNonNull(key, "key");
            values = List.copyOf(new TreeSet<>(values));
            if (values.isEmpty()) throw new IllegalArgumentException("A feature set needs at least one value");
        }

        @Override
        public String toString() {
            return PredicatePrinter.print(this);
        }
    }

    /** {@code key in [from..to]}: the feature is an integer in the range; a missing bound is open. */
    record FeatureRange(String key, Long from, Long to) implements Predicate {

        public FeatureRange {
            Objects.requireNonNull(key, "key");
            if (from != null && to != null && from > to)
                throw new IllegalArgumentException("Range from " + from + " is greater than its end " + to);
        }

        @Override
        public String toString() {
            return PredicatePrinter.print(this);
        }
    }

    /** {@code not (operand)}, or {@code key not in [...]} for a feature set. */
    record Negation(Predicate operand) implements Predicate {

        public Negation {
            Objects.requireNonNull(operand, "operand");
        }

        @Override
        public String toString() {
            return PredicatePrinter.print(this);
        }
    }

    /** Every operand holds. */
    record Conjunction(List<Predicate> operands) implements Predicate {

        public Conjunction {
            operands = List.copyOf(operands);
        }

        @Override
        public String toString() {
            return PredicatePrinter.print(this);
        }
    }

    /** Some operand holds. */
    record Disjunction(List<Predicate> operands) implements Predicate {

        public Disjunction {
            operands = List.copyOf(operands);
        }

        @Override
        public String toString() {
            return PredicatePrinter.print(this);
        }
    }

    /** {@code true} or {@code false}. */
    record Constant(boolean value) implements Predicate {

        @Override
        public String toString() {
            return PredicatePrinter.print(this);
        }
    }
}

package io.sluice.document;

import io.sluice.document.predicate.Predicate;
import java.util.Objects;

/**
 * A {@code predicate} field value as text; the empty string counts as not set. Values read from clients are
 * {@link #parse parsed} and hold Vespa's canonical form; the constructor takes any text, as documents stored before
 * predicates were checked may hold text that does not parse.
 */
public record PredicateValue(String value) implements FieldValue {

    public PredicateValue {
        Objects.requireNonNull(value, "value");
    }

    /**
     * The value of the predicate {@code text} describes, in Vespa's canonical form.
     *
     * @throws io.sluice.document.predicate.PredicateParseException if {@code text} is not a predicate
     */
    public static PredicateValue parse(String text) {
        return new PredicateValue(Predicate.parse(text).toString());
    }

    @Override
    public boolean isEmpty() {
        return value.isEmpty();
    }

    @Override
    public String toString() {
        return value;
    }
}

package io.sluice.content;

import java.util.Objects;

/**
 * How messages name one operation, e.g. {@code put of 'id:ns:music::a'}. Only failures and refusals print it, so the
 * text is made then ({@link #toString()}), not for every operation.
 *
 * @param verb    what is done, e.g. {@code put}
 * @param subject what it is done to, usually a document id
 */
public record OperationName(String verb, Object subject) {

    public OperationName {
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(subject, "subject");
    }

    @Override
    public String toString() {
        return verb + " of '" + subject + "'";
    }

}

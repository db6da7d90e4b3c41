package io.sluice.content.embedded;

import io.sluice.content.Outcome;

import java.util.List;

/**
 * What an operation decided after reading the stored version: the outcome, and the mutations to write first (none
 * for reads and for writes that do nothing). The outcome holds only once the mutations are written.
 */
final class Step {

    final Outcome outcome;
    final List<Mutation> mutations;

    private Step(Outcome outcome, List<Mutation> mutations) {
        this.outcome = outcome;
        this.mutations = mutations;
    }

    /** Nothing to write: {@code outcome} holds now. */
    static Step done(Outcome outcome) {
        return new Step(outcome, List.of());
    }

    /** {@code outcome} holds once {@code mutations} are written. */
    static Step write(Outcome outcome, List<Mutation> mutations) {
        return new Step(outcome, List.copyOf(mutations));
    }

}

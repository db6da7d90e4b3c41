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
    /** The version timestamp the mutations write, 0 if they write none (they only delete). */
    final long timestamp;

    private Step(Outcome outcome, List<Mutation> mutations, long timestamp) {
        this.outcome = outcome;
        this.mutations = mutations;
        this.timestamp = timestamp;
    }

    /** Nothing to write: {@code outcome} holds now. */
    static Step done(Outcome outcome) {
        return new Step(outcome, List.of(), 0);
    }

    /** {@code outcome} holds once {@code mutations}, which write a version at {@code timestamp}, are written. */
    static Step write(Outcome outcome, List<Mutation> mutations, long timestamp) {
        return new Step(outcome, List.copyOf(mutations), timestamp);
    }

    /** {@code outcome} holds once {@code mutations}, which write no version, are written. */
    static Step delete(Outcome outcome, List<Mutation> mutations) {
        return new Step(outcome, List.copyOf(mutations), 0);
    }

}

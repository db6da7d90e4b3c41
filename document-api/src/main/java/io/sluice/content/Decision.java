package io.sluice.content;

import io.sluice.document.Document;

import java.util.Objects;

/**
 * What the {@link WriteRules} decided for one operation: answer without writing, write a new live version, or write a
 * tombstone. An engine carries out a write and then answers {@link #written(long)} with the timestamp it gave it.
 */
public final class Decision {

    private final Outcome answer;
    private final Document document;
    private final boolean found;
    private final boolean read;

    private Decision(Outcome answer, Document document, boolean found, boolean read) {
        this.answer = answer;
        this.document = document;
        this.found = found;
        this.read = read;
    }

    /** Nothing to write: answer {@code outcome}. */
    public static Decision answer(Outcome outcome) {
        return new Decision(Objects.requireNonNull(outcome, "outcome"), null, false, true);
    }

    /** Write {@code document} as the new live version; {@code found} says whether a live version existed. */
    public static Decision write(Document document, boolean found) {
        return new Decision(null, Objects.requireNonNull(document, "document"), found, true);
    }

    /** Write a tombstone over the live version that exists. */
    public static Decision tombstone() {
        return new Decision(null, null, true, true);
    }

    /** Write {@code document} without having read the previous version (a plain put). */
    static Decision writeWithoutRead(Document document) {
        return new Decision(null, Objects.requireNonNull(document, "document"), false, false);
    }

    /** Write a tombstone without having read the previous version (a plain remove). */
    static Decision tombstoneWithoutRead() {
        return new Decision(null, null, false, false);
    }

    /** Whether nothing is to be written; {@link #answer()} then holds the outcome. */
    public boolean isAnswer() {
        return answer != null;
    }

    /** Whether a tombstone is to be written. */
    public boolean isTombstone() {
        return answer == null && document == null;
    }

    /** The outcome of a decision that writes nothing. @throws IllegalStateException for a write */
    public Outcome answer() {
        if (answer == null) {
            throw new IllegalStateException("This decision writes; it has no answer before it is written");
        }
        return answer;
    }

    /** The document to write as the new live version. @throws IllegalStateException unless this writes one */
    public Document document() {
        if (document == null) {
            throw new IllegalStateException("This decision writes no live document");
        }
        return document;
    }

    /** The outcome of this write once it is durably applied at {@code timestamp}. */
    public Outcome written(long timestamp) {
        if (answer != null) {
            throw new IllegalStateException("This decision writes nothing");
        }
        return read ? Outcome.written(timestamp, found) : Outcome.writtenWithoutRead(timestamp);
    }

    @Override
    public String toString() {
        return answer != null ? "answer " + answer : document != null ? "write " + document.id() : "tombstone";
    }

}

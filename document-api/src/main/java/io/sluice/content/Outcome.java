package io.sluice.content;

import io.sluice.document.Document;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.DocumentId;
import io.sluice.document.select.DocumentSelection;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The result of one single-document operation, as a value: failures are outcomes, not exceptions.
 *
 * <p>{@link Status#SUCCESS} carries the timestamp the backend gave the write (or, for a get, the timestamp of the
 * returned version) and whether the document existed; an update or remove of a missing document succeeds with
 * {@code found() == false} and timestamp 0. A get that finds the document returns it, filtered by the requested field
 * set, from {@link #document()}. Every other status carries a message for the client.
 *
 * <p>A backend that writes a plain put or remove without reading the previous version (see {@link ContentBackend})
 * cannot tell whether the document existed: its outcome says so with {@link #foundKnown()} false.
 */
public final class Outcome {

    /** What happened; the /document/v1 status each maps to is in parentheses. */
    public enum Status {
        /** Applied or found (200). */
        SUCCESS,
        /** A get found no document, or found only a tombstone (404). */
        NOT_FOUND,
        /** A test-and-set condition did not evaluate to true, or named a missing document without create (412). */
        CONDITION_FAILED,
        /** Too many operations pending; retry later (429). */
        OVERLOAD,
        /**
         * The content layer cannot serve the operation now (e.g. too few live replicas, no reachable storage node);
         * it was not applied; retry later (503). Only for operations known not to have been applied: a write whose
         * outcome is unknown is a {@link #TIMEOUT}, never this.
         */
        UNAVAILABLE,
        /** The store is full (507). */
        INSUFFICIENT_STORAGE,
        /**
         * The deadline passed before the operation was applied, so it was not applied (504); or a distributed store
         * could not tell in time whether a write it had started was applied, so it may have been.
         */
        TIMEOUT,
        /**
         * The operation cannot apply to the document it met, e.g. an arithmetic update whose result the field's type
         * cannot hold; nothing was written (400).
         */
        INVALID,
        /** Anything else went wrong (500). */
        ERROR
    }

    private final Status status;
    private final String message;
    private final long timestamp;
    private final boolean found;
    private final boolean foundKnown;
    private Document document; // decoded from decoder on first use when the get answered with fieldsJson
    private final Supplier<Document> decoder;
    private final FieldsJson fieldsJson;

    private Outcome(Status status, String message, long timestamp, boolean found, Document document) {
        this(status, message, timestamp, found, true, document);
    }

    private Outcome(Status status, String message, long timestamp, boolean found, boolean foundKnown,
                    Document document) {
        this.status = status;
        this.message = Objects.requireNonNull(message, "message");
        this.timestamp = timestamp;
        this.found = found;
        this.foundKnown = foundKnown;
        this.document = document;
        this.decoder = null;
        this.fieldsJson = null;
    }

    private Outcome(long timestamp, FieldsJson fieldsJson, Supplier<Document> decoder) {
        this.status = Status.SUCCESS;
        this.message = "";
        this.timestamp = timestamp;
        this.found = true;
        this.foundKnown = true;
        this.document = null;
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.fieldsJson = Objects.requireNonNull(fieldsJson, "fieldsJson");
    }

    /** A write that was applied at {@code timestamp}; {@code found} says whether the document existed before. */
    public static Outcome written(long timestamp, boolean found) {
        return new Outcome(Status.SUCCESS, "", timestamp, found, null);
    }

    /**
     * A plain put or remove applied at {@code timestamp} without reading the previous version: whether the document
     * existed is unknown ({@link #found()} is false, {@link #foundKnown()} too).
     */
    public static Outcome writtenWithoutRead(long timestamp) {
        return new Outcome(Status.SUCCESS, "", timestamp, false, false, null);
    }

    /** An update or remove of a document that does not exist: success, nothing written. */
    public static Outcome missing() {
        return new Outcome(Status.SUCCESS, "", 0, false, null);
    }

    /** A get that found {@code document}, stored at {@code timestamp}. */
    public static Outcome found(Document document, long timestamp) {
        return new Outcome(Status.SUCCESS, "", timestamp, true, Objects.requireNonNull(document, "document"));
    }

    /**
     * A get that found a whole document, stored at {@code timestamp}, whose fields the engine holds as
     * {@code fieldsJson}: a response can be written from those bytes; {@link #document()} decodes them with
     * {@code decoder} only if somebody asks.
     */
    public static Outcome found(FieldsJson fieldsJson, Supplier<Document> decoder, long timestamp) {
        return new Outcome(timestamp, fieldsJson, decoder);
    }

    /** A failure, or {@link Status#NOT_FOUND}; use {@link #written}, {@link #missing} or {@link #found} for success. */
    public static Outcome of(Status status, String message) {
        if (status == Status.SUCCESS) {
            throw new IllegalArgumentException("A success outcome needs a timestamp; use written, missing or found");
        }
        return new Outcome(status, message, 0, false, null);
    }

    /** A test-and-set {@code condition} that does not hold for the live document {@code id}. */
    public static Outcome conditionNotMet(DocumentSelection condition, DocumentId id) {
        return conditionFailed("Condition '" + condition + "' is not met by document '" + id + "'");
    }

    /** A test-and-set {@code condition} on {@code id}, which does not exist (and may not be created). */
    public static Outcome conditionOnMissing(DocumentSelection condition, DocumentId id) {
        return conditionFailed("Condition '" + condition + "' is not met: document '" + id + "' does not exist");
    }

    /** An operation, described by {@code what} (e.g. an {@link OperationName}), whose deadline passed before it started. */
    public static Outcome deadlinePassed(Object what, Instant deadline) {
        return timeout(what + " timed out: deadline " + deadline + " passed");
    }

    public static Outcome notFound(String message) {
        return of(Status.NOT_FOUND, message);
    }

    public static Outcome conditionFailed(String message) {
        return of(Status.CONDITION_FAILED, message);
    }

    public static Outcome overload(String message) {
        return of(Status.OVERLOAD, message);
    }

    public static Outcome unavailable(String message) {
        return of(Status.UNAVAILABLE, message);
    }

    public static Outcome insufficientStorage(String message) {
        return of(Status.INSUFFICIENT_STORAGE, message);
    }

    public static Outcome timeout(String message) {
        return of(Status.TIMEOUT, message);
    }

    public static Outcome invalid(String message) {
        return of(Status.INVALID, message);
    }

    public static Outcome error(String message) {
        return of(Status.ERROR, message);
    }

    public Status status() {
        return status;
    }

    /** Whether the status is {@link Status#SUCCESS}. */
    public boolean isSuccess() {
        return status == Status.SUCCESS;
    }

    /** Empty for successes; otherwise what went wrong. */
    public String message() {
        return message;
    }

    /** Microseconds the backend assigned to the write, or of the version read; 0 when nothing was written or read. */
    public long timestamp() {
        return timestamp;
    }

    /**
     * For successes: whether the document existed (as a live document, not a tombstone) before the operation; false
     * also when that is unknown ({@link #foundKnown()}).
     */
    public boolean found() {
        return found;
    }

    /** False only for a plain put or remove that the backend applied without reading the previous version. */
    public boolean foundKnown() {
        return foundKnown;
    }

    /** The document a successful get read, filtered by its field set; empty for every other outcome. */
    public Optional<Document> document() {
        if (document == null && decoder != null)
            document = decoder.get(); // immutable: a race decodes twice, harmlessly
        return Optional.ofNullable(document);
    }

    /**
     * For a get that found a whole document in an engine that holds its fields as JSON of the current types: those
     * bytes, which are what {@link io.sluice.document.json.DocumentJsonWriter} writes for {@link #document()} with
     * short tensors. Empty otherwise, and then only {@link #document()} has the document.
     */
    public Optional<FieldsJson> fieldsJson() {
        return Optional.ofNullable(fieldsJson);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Outcome)) {
            return false;
        }
        Outcome other = (Outcome) o;
        return status == other.status && message.equals(other.message) && timestamp == other.timestamp
               && found == other.found && foundKnown == other.foundKnown && Objects.equals(document(), other.document());
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, message, timestamp, found);
    }

    @Override
    public String toString() {
        if (status != Status.SUCCESS) {
            return status + ": " + message;
        }
        return "SUCCESS(timestamp " + timestamp + (!foundKnown ? ", not read" : found ? ", found" : ", not found")
               + (document != null ? ", " + document : fieldsJson != null ? ", fields " + fieldsJson : "") + ")";
    }

}

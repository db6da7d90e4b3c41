package io.sluice.content;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.document.json.FieldsJson;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A document store: the seam between the /document/v1 handler and whatever keeps the documents (in memory, on local
 * disk, in a distributed store). Implementations are thread-safe and never block the calling thread; every operation
 * completes its future with an {@link Outcome} value, never exceptionally (a bug becomes {@link Outcome.Status#ERROR}).
 *
 * <h2>Versions and timestamps</h2>
 * Each write of a document gets a timestamp in microseconds from the backend's clock, strictly greater than that of
 * the document's previous version ({@link Timestamps}). A remove leaves a tombstone carrying its own timestamp, which
 * visits with {@code includeRemoves} return; a get or update treats a tombstone as a missing document. Backends may
 * forget tombstones after a retention period.
 *
 * <h2>Ordering</h2>
 * Operations on one document id are applied in the order they were issued (the order of the calls), whatever the
 * thread; operations on different ids may run in parallel. {@link OperationSequencer} does this for every engine.
 *
 * <h2>Plain puts and removes</h2>
 * A put or remove without a condition needs nothing of the previous version but its existence, which only
 * {@link Outcome#found()} reports and /document/v1 never shows. A backend may therefore apply one without reading the
 * previous version ({@link WriteRules#putWithoutRead}, {@link WriteRules#removeWithoutRead}), as long as operations
 * on the id stay ordered as above and its timestamps increase monotonically across everything it writes (for
 * example {@link Timestamps#monotonic}, floored at the newest timestamp it stores). Such an outcome says so with
 * {@link Outcome#foundKnown()} false, and a plain remove of a missing document then leaves a tombstone that visits
 * with {@code includeRemoves} may return. Conditional operations, creates and updates always read: their outcomes
 * always know. Each backend's documentation says which it does.
 *
 * <h2>Test-and-set conditions and create-if-nonexistent</h2>
 * A condition holds only if it evaluates to {@code TRUE} against the newest live version; {@code INVALID} counts as
 * false. Against a missing document (or a tombstone):
 * <ul>
 *   <li>put: without condition it is simply written; with a condition it fails with CONDITION_FAILED unless
 *       create-if-nonexistent is set, in which case it is written as if there were no condition;</li>
 *   <li>update: without create it succeeds with {@code found() == false} and writes nothing; with create the update
 *       is applied to an empty document ({@code Document.of(type, id)}), ignoring any condition; with a condition and
 *       no create it fails with CONDITION_FAILED;</li>
 *   <li>remove: succeeds with {@code found() == false}, unless it has a condition, then CONDITION_FAILED;</li>
 *   <li>get: NOT_FOUND, with or without a condition.</li>
 * </ul>
 *
 * <h2>Deadlines and limits</h2>
 * An operation not started by {@link OperationOptions#deadline()} completes with TIMEOUT and is not applied. A backend
 * with too many operations pending answers OVERLOAD, one that is full INSUFFICIENT_STORAGE, and one whose storage cannot
 * serve the operation now (a distributed store with too few live nodes) UNAVAILABLE; none of them applies the
 * operation. After {@link #close()}, operations complete with ERROR.
 *
 * <h2>Threads</h2>
 * Futures may complete on a backend thread; dependent actions must be quick and must not block, or hand off to
 * their own executor.
 */
public interface ContentBackend extends AutoCloseable {

    /**
     * Writes {@code document}, replacing any previous version. On success, {@code found()} says whether a live
     * version existed before, unless the backend applied a plain put without reading it (see above).
     */
    CompletableFuture<Outcome> put(Document document, OperationOptions options);

    /**
     * {@link #put(Document, OperationOptions)} of a document whose fields object, as
     * {@link io.sluice.document.json.DocumentJsonWriter#writeFields} writes it, is {@code fields} (null when not
     * known): a backend that stores that form may store these bytes instead of writing the document again. The
     * default ignores them.
     */
    default CompletableFuture<Outcome> put(Document document, FieldsJson fields, OperationOptions options) {
        return put(document, options);
    }

    /**
     * Reads the newest live version of {@code id}, with only the fields {@code fields} keeps: SUCCESS with the
     * document and its timestamp, NOT_FOUND if there is none, CONDITION_FAILED if there is one but the condition does
     * not hold.
     */
    CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions options);

    /**
     * Applies {@code update} to the newest live version. Creates the document if missing when
     * {@code update.createIfNonExistent()} or {@code options.createIfNonExistent()}. If {@code update.applyTo} throws,
     * completes with ERROR carrying its message and writes nothing.
     */
    CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions options);

    /**
     * Removes {@code id}, leaving a tombstone; {@code options.createIfNonExistent()} is ignored. On success,
     * {@code found()} says whether a live version existed, unless the backend applied a plain remove without reading
     * it (see above).
     */
    CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options);

    /**
     * Starts a visit; nothing is read until the first {@link Visit#next}.
     *
     * @throws InvalidProgressTokenException if the spec's progress token was made for another slice, bucket space or
     *                                       distribution bit count
     */
    Visit visit(VisitSpec spec);

    /**
     * Whether selections and conditions this backend evaluates read imported fields ({@code import field ref.f as
     * name}) from the parent documents in its global bucket space, as Vespa's content nodes do. If not, callers must
     * refuse selections that name imported fields rather than let them evaluate to {@code null}. This default does not.
     */
    default boolean followsReferences() {
        return false;
    }

    /**
     * Figures describing the store now, for metrics: names from {@link ContentStatistics} to values, only those this
     * backend can tell. Cheap enough to call on every metrics request, and does not wait for operations. Never
     * throws: a closed backend, or one that cannot read its figures, reports none. This default reports none.
     */
    default Map<String, Number> statistics() {
        return Map.of();
    }

    /**
     * Why the backend refuses every write until it is restarted, if it does: its storage failed in a way that trying
     * again cannot safely repair, e.g. an fsync of its write-ahead log failed (a later fsync that succeeds proves
     * nothing about the pages the failed one covered). Writes then complete with UNAVAILABLE naming this; reads go on
     * where the store can serve them. The container reports it as its health ({@code down}, with this message). Cheap,
     * never throws. This default: never.
     */
    default Optional<String> storageFailure() {
        return Optional.empty();
    }

    /**
     * What keeps this backend from serving everything now, for operators, e.g. that writes are refused because the
     * disk is full; empty when nothing does. Reported by {@code /state/v1/health}. Cheap, does not wait for
     * operations, never throws. This default reports nothing.
     */
    default Optional<String> condition() {
        return Optional.empty();
    }

    /**
     * Stops accepting operations and releases resources. Operations already issued still complete (possibly with
     * ERROR); later ones complete with ERROR.
     */
    @Override
    void close();

}

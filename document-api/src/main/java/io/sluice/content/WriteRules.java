package io.sluice.content;

import io.sluice.document.Document;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.DocumentSelectionContext;
import io.sluice.document.select.ParentDocuments;

import java.time.Clock;
import java.util.Optional;

/**
 * The {@link ContentBackend} contract's decision rules, once for every engine: given the newest stored version of a
 * document ({@code null} for none, or a tombstone) and an operation with its options, what to answer and what to
 * write. Pure functions of their arguments; the clock is read only by a condition's {@code now()}.
 *
 * <p>The caller runs at most one operation per document at a time (see {@link KeySequencer}), so reading the version,
 * deciding and writing is atomic per document.
 */
public final class WriteRules {

    private WriteRules() { }

    /**
     * Whether a put or remove with {@code options} needs the stored document itself (to evaluate a condition);
     * without a condition, a version's header (liveness, timestamp) is enough, or nothing at all for an engine that
     * writes plain puts and removes without reading (see {@link ContentBackend}). Updates and gets always need it.
     */
    public static boolean needsDocument(OperationOptions options) {
        return options.condition().isPresent();
    }

    /** A put of {@code document} over {@code previous}. */
    public static Decision put(Document document, Version previous, OperationOptions options, Clock clock) {
        return put(document, previous, options, clock, ParentDocuments.NONE);
    }

    /** A put, its condition's imported fields read from {@code parents}. */
    public static Decision put(Document document, Version previous, OperationOptions options, Clock clock,
                               ParentDocuments parents) {
        boolean found = Version.isLive(previous);
        Optional<DocumentSelection> condition = options.condition();
        if (condition.isPresent()) {
            if (!found && !options.createIfNonExistent()) {
                return Decision.answer(Outcome.conditionOnMissing(condition.get(), document.id()));
            }
            if (found && !holds(condition.get(), previous.document(), clock, parents)) {
                return Decision.answer(Outcome.conditionNotMet(condition.get(), document.id()));
            }
        }
        return Decision.write(document, found);
    }

    /**
     * {@code update} applied to {@code previous}, or to an empty document when it is missing and may be created. If
     * the update cannot be applied, {@link DocumentUpdate#applyTo} throws, and nothing is to be written.
     */
    public static Decision update(DocumentUpdate update, Version previous, OperationOptions options, Clock clock) {
        return update(update, previous, options, clock, ParentDocuments.NONE);
    }

    /** An update, its condition's imported fields read from {@code parents}. */
    public static Decision update(DocumentUpdate update, Version previous, OperationOptions options, Clock clock,
                                  ParentDocuments parents) {
        DocumentId id = update.id();
        Optional<DocumentSelection> condition = options.condition();
        if (Version.isLive(previous)) {
            Document current = previous.document();
            if (condition.isPresent() && !holds(condition.get(), current, clock, parents)) {
                return Decision.answer(Outcome.conditionNotMet(condition.get(), id));
            }
            return Decision.write(update.applyTo(current), true);
        }
        if (update.createIfNonExistent() || options.createIfNonExistent()) {
            return Decision.write(update.applyTo(Document.of(update.type(), id)), false);
        }
        return Decision.answer(condition.isPresent() ? Outcome.conditionOnMissing(condition.get(), id)
                                                     : Outcome.missing());
    }

    /** A remove of {@code id} over {@code previous}: a tombstone if a live version exists. */
    public static Decision remove(DocumentId id, Version previous, OperationOptions options, Clock clock) {
        return remove(id, previous, options, clock, ParentDocuments.NONE);
    }

    /** A remove, its condition's imported fields read from {@code parents}. */
    public static Decision remove(DocumentId id, Version previous, OperationOptions options, Clock clock,
                                  ParentDocuments parents) {
        boolean found = Version.isLive(previous);
        Optional<DocumentSelection> condition = options.condition();
        if (condition.isPresent()) {
            if (!found) {
                return Decision.answer(Outcome.conditionOnMissing(condition.get(), id));
            }
            if (!holds(condition.get(), previous.document(), clock, parents)) {
                return Decision.answer(Outcome.conditionNotMet(condition.get(), id));
            }
        }
        return found ? Decision.tombstone() : Decision.answer(Outcome.missing());
    }

    /**
     * A plain put (no condition) decided without reading the previous version, for an engine that writes those
     * blind (see {@link ContentBackend}); its outcome does not know whether the document existed.
     *
     * @throws IllegalArgumentException if {@code options} has a condition, which needs the stored document
     */
    public static Decision putWithoutRead(Document document, OperationOptions options) {
        requirePlain(options, "put of '" + document.id() + "'");
        return Decision.writeWithoutRead(document);
    }

    /**
     * A plain remove (no condition) decided without reading the previous version: a tombstone whether or not the
     * document exists, for an engine that writes those blind (see {@link ContentBackend}).
     *
     * @throws IllegalArgumentException if {@code options} has a condition, which needs the stored document
     */
    public static Decision removeWithoutRead(DocumentId id, OperationOptions options) {
        requirePlain(options, "remove of '" + id + "'");
        return Decision.tombstoneWithoutRead();
    }

    private static void requirePlain(OperationOptions options, String what) {
        if (needsDocument(options)) {
            throw new IllegalArgumentException("The " + what + " has condition '" + options.condition().get()
                                               + "', which needs the stored document");
        }
    }

    /** A get of {@code id} from {@code current}: the document with only {@code fields}, or why not. */
    public static Outcome get(DocumentId id, Version current, FieldSet fields, OperationOptions options, Clock clock) {
        return get(id, current, fields, options, clock, ParentDocuments.NONE);
    }

    /** A get, its condition's imported fields read from {@code parents}. */
    public static Outcome get(DocumentId id, Version current, FieldSet fields, OperationOptions options, Clock clock,
                              ParentDocuments parents) {
        if (!Version.isLive(current)) {
            return Outcome.notFound("Document '" + id + "' not found");
        }
        Optional<DocumentSelection> condition = options.condition();
        if (condition.isEmpty() && fields.isEveryField()) {
            Optional<FieldsJson> json = current.fieldsJson();
            if (json.isPresent())
                return Outcome.found(json.get(), current::document, current.timestamp());
        }
        Document document = current.document();
        if (condition.isPresent() && !holds(condition.get(), document, clock, parents)) {
            return Outcome.conditionNotMet(condition.get(), id);
        }
        return Outcome.found(fields.filter(document), current.timestamp());
    }

    private static boolean holds(DocumentSelection condition, Document document, Clock clock, ParentDocuments parents) {
        return condition.matches(DocumentSelectionContext.of(document, parents), clock);
    }

}

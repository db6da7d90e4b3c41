package io.sluice.content;

import io.sluice.document.select.DocumentSelection;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How to carry out one single-document operation: by when, in which bucket space, under which test-and-set condition,
 * and whether a put or update may create a missing document. Immutable; the withers return modified copies.
 *
 * <p>Create-if-nonexistent matters only together with a condition for puts (see {@link ContentBackend#put}); for
 * updates the effective flag is {@code options.createIfNonExistent() || update.createIfNonExistent()}, so a caller
 * overriding a body's {@code "create": true} with {@code create=false} must clear it on the update itself.
 */
public final class OperationOptions {

    private final Instant deadline;
    private final BucketSpace bucketSpace;
    private final DocumentSelection condition;
    private final boolean createIfNonExistent;

    private OperationOptions(Instant deadline, BucketSpace bucketSpace, DocumentSelection condition,
                             boolean createIfNonExistent) {
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.bucketSpace = Objects.requireNonNull(bucketSpace, "bucketSpace");
        this.condition = condition;
        this.createIfNonExistent = createIfNonExistent;
    }

    /** Options for an operation in the default space that must complete by {@code deadline}, unconditionally. */
    public static OperationOptions until(Instant deadline) {
        return new OperationOptions(deadline, BucketSpace.DEFAULT, null, false);
    }

    /** These options with the given test-and-set condition. */
    public OperationOptions withCondition(DocumentSelection condition) {
        return new OperationOptions(deadline, bucketSpace, Objects.requireNonNull(condition, "condition"),
                                    createIfNonExistent);
    }

    /** These options without a condition. */
    public OperationOptions withoutCondition() {
        return new OperationOptions(deadline, bucketSpace, null, createIfNonExistent);
    }

    /** These options with create-if-nonexistent set as given. */
    public OperationOptions withCreateIfNonExistent(boolean create) {
        return new OperationOptions(deadline, bucketSpace, condition, create);
    }

    /** These options addressing {@code space}: these themselves if they do. */
    public OperationOptions withBucketSpace(BucketSpace space) {
        if (space == bucketSpace)
            return this; // immutable: most operations are in the default space
        return new OperationOptions(deadline, space, condition, createIfNonExistent);
    }

    /** These options with another deadline. */
    public OperationOptions withDeadline(Instant deadline) {
        return new OperationOptions(deadline, bucketSpace, condition, createIfNonExistent);
    }

    /** The instant after which the backend gives up with {@link Outcome.Status#TIMEOUT} instead of applying. */
    public Instant deadline() {
        return deadline;
    }

    /** The bucket space holding the document. */
    public BucketSpace bucketSpace() {
        return bucketSpace;
    }

    /** The test-and-set condition, if any: the operation applies only if the stored document matches it. */
    public Optional<DocumentSelection> condition() {
        return Optional.ofNullable(condition);
    }

    /** Whether a put or update may create a document that does not exist. */
    public boolean createIfNonExistent() {
        return createIfNonExistent;
    }

    @Override
    public String toString() {
        return "options(deadline " + deadline + ", space " + bucketSpace.wireName()
               + (condition == null ? "" : ", condition '" + condition + "'")
               + (createIfNonExistent ? ", create" : "") + ")";
    }

}

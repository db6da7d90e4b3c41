package io.sluice.feed;

import java.util.Optional;

/**
 * One operation read from a feed: its type, document id, condition and create flag from the operation object, and
 * the request body {@code {"fields":…}} with the fields sliced verbatim from the input (empty for a remove).
 *
 * @param source the operation object's bytes exactly as read, when the reader was asked to keep them; else empty
 * @param end where in the input the operation object ends (just after its closing brace)
 */
public record FeedOperation(OperationType type, DocumentId documentId, Optional<String> condition, boolean create,
                            byte[] body, byte[] source, FeedReader.Position end) {

    private static final byte[] NO_SOURCE = new byte[0];

    /** An operation that was not read from an input. */
    public FeedOperation(OperationType type, DocumentId documentId, Optional<String> condition, boolean create, byte[] body) {
        this(type, documentId, condition, create, body, NO_SOURCE, FeedReader.Position.START);
    }

    /** The operation's parameters added to the given ones. */
    public OperationParameters parameters(OperationParameters base) {
        OperationParameters params = create ? base.createIfNonExistent(true) : base;
        return condition.isPresent() ? params.testAndSetCondition(condition.get()) : params;
    }

}

package io.sluice.feed;

import java.util.Optional;

/**
 * One operation read from a feed: its type, document id, condition and create flag from the operation object, and
 * the request body {@code {"fields":…}} with the fields sliced verbatim from the input (empty for a remove).
 */
public record FeedOperation(OperationType type, DocumentId documentId, Optional<String> condition, boolean create,
                            byte[] body) {

    /** The operation's parameters added to the given ones. */
    public OperationParameters parameters(OperationParameters base) {
        OperationParameters params = create ? base.createIfNonExistent(true) : base;
        return condition.isPresent() ? params.testAndSetCondition(condition.get()) : params;
    }

}

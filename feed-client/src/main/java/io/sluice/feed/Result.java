package io.sluice.feed;

import java.util.Optional;

/**
 * The outcome of an operation the server accepted: {@link Type#SUCCESS} (200) or {@link Type#CONDITION_NOT_MET} (412).
 * Every other outcome completes the operation's future with a {@link FeedException}.
 *
 * @param type what happened
 * @param documentId the operation's document
 * @param resultMessage the response's {@code message}, if any
 * @param traceMessage the response's {@code trace} array as JSON text, if any
 */
public record Result(Type type, DocumentId documentId, Optional<String> resultMessage, Optional<String> traceMessage) {

    public enum Type { SUCCESS, CONDITION_NOT_MET }

    /** The official client's spelling of the type: {@code success} or {@code conditionNotMet}. */
    public String typeName() {
        return type == Type.SUCCESS ? "success" : "conditionNotMet";
    }

}

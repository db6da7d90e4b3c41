package io.sluice.content;

/**
 * How a {@link Visit#next} fails when the content layer cannot serve the visit now (e.g. a distributed store with too
 * few live replicas): the visit's counterpart of {@link Outcome.Status#UNAVAILABLE}. Nothing was read past the last
 * batch, so a new visit from that batch's continuation may succeed later; the /document/v1 handler answers such a
 * page with 503, which clients retry.
 */
public final class ContentUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what could not be served and why, for the client */
    public ContentUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

}

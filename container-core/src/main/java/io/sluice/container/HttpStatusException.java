package io.sluice.container;

/**
 * A request that ends with a given HTTP status and message. Thrown by handlers for client errors and overload;
 * rendered as {@code {"message": ...}} by {@link JsonResponses}. Cheap: no stack trace is captured.
 */
public class HttpStatusException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public HttpStatusException(int status, String message) {
        super(message, null, false, false);
        if (status < 400 || status > 599)
            throw new IllegalArgumentException("status must be an error status in [400, 599], but was " + status);
        this.status = status;
    }

    public int status() {
        return status;
    }

}

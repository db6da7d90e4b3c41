package io.sluice.container;

import org.eclipse.jetty.http.HttpException;

/**
 * A request that ends with a given HTTP status and message. Thrown by handlers for client errors and overload;
 * rendered as {@code {"message": ...}} by {@link JsonResponses}, or by {@link JsonErrorHandler} when a handler fails
 * its callback with it (it is a Jetty {@link HttpException}, so Jetty keeps its status). Cheap: no stack trace.
 */
public class HttpStatusException extends RuntimeException implements HttpException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public HttpStatusException(int status, String message) {
        super(message, null, false, false);
        if (status < 400 || status > 599)
            throw new java.lang.IllegalArgumentException("status must be an error status in [400, 599], but was " + status);
        this.status = status;
    }

    public int status() {
        return status;
    }

    @Override
    public int getCode() {
        return status;
    }

    @Override
    public String getReason() {
        return getMessage();
    }

}

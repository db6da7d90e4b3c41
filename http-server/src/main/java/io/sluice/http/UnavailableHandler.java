package io.sluice.http;

import io.sluice.container.JsonResponses;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.Objects;

/**
 * Stands in for a {@code <handler>} whose class cannot run in Sluice (a Vespa request handler): every request to its
 * bindings answers 501 {@code {"message": ...}} naming the handler, so the rest of the application still serves.
 */
final class UnavailableHandler extends Handler.Abstract.NonBlocking {

    private final String message;

    UnavailableHandler(String message) {
        this.message = Objects.requireNonNull(message, "message");
    }

    /** What every response says. */
    String message() {
        return message;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        JsonResponses.error(response, callback, HttpStatus.NOT_IMPLEMENTED_501, message);
        return true;
    }

}

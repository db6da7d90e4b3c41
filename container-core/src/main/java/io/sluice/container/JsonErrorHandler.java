package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Renders the errors Jetty produces itself (503 while stopping, 413 over a size limit, a failed callback's 500)
 * as {@code {"message": ...}} instead of HTML, so clients see one error shape. Install with
 * {@code server.setErrorHandler(new JsonErrorHandler())}.
 */
public class JsonErrorHandler extends ErrorHandler {

    /** Every method gets a body: document API clients PUT, DELETE and PATCH, and want the message too. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                    Callback callback) {
        String text = message != null && ! message.isBlank() ? message : HttpStatus.getMessage(code);
        // Jetty's message for an unexpected failure is the exception's toString: class names are for the log, not the
        // client. Statuses the application chose keep their message.
        if (code >= 500 && ! hasStatus(cause))
            text = HttpStatus.getMessage(code);
        JsonResponses.error(response, callback, code, text);
    }

    private static boolean hasStatus(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause())
            if (t instanceof HttpStatusException)
                return true;
        return false;
    }

}

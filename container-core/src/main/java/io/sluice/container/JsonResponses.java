package io.sluice.container;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;

/** Writes whole JSON responses: the one place where errors become {@code {"message": ...}} bodies. */
public final class JsonResponses {

    public static final String CONTENT_TYPE = "application/json;charset=utf-8";

    private JsonResponses() { }

    /** Sends {@code body} with {@code status} and completes {@code callback} when written. */
    public static void send(Response response, Callback callback, int status, byte[] body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, CONTENT_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** Sends {@code {"message": message}} with {@code status}. */
    public static void error(Response response, Callback callback, int status, String message) {
        send(response, callback, status, Json.message(message));
    }

    /** Sends the status and message of {@code exception}. */
    public static void error(Response response, Callback callback, HttpStatusException exception) {
        error(response, callback, exception.status(), exception.getMessage());
    }

    /** Sends 405 naming the method and what is allowed. */
    public static void methodNotAllowed(Response response, Callback callback, String method, String allowed) {
        response.getHeaders().put(HttpHeader.ALLOW, allowed);
        error(response, callback, HttpStatus.METHOD_NOT_ALLOWED_405,
              "Method '" + method + "' is not supported here; allowed: " + allowed);
    }

}

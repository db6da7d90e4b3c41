package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsonErrorHandlerTest {

    static final class Failing extends Handler.Abstract.NonBlocking {
        private final Throwable failure;
        Failing(Throwable failure) { this.failure = failure; }
        @Override public boolean handle(Request request, Response response, Callback callback) {
            callback.failed(failure);
            return true;
        }
    }

    @Test
    void callbackFailedWithStatusException_rendersItsStatusAndMessage() throws Exception {
        try (var server = LocalServer.start(new Failing(new HttpStatusException(429, "Rejecting execution due to overload")))) {
            var response = server.request("PUT", "/x");
            assertEquals(429, response.getStatus());
            assertEquals(JsonResponses.CONTENT_TYPE, response.get("Content-Type"));
            assertEquals(Map.of("message", "Rejecting execution due to overload"), JsonTree.parse(response.getContent()));
        }
    }

    @Test
    void callbackFailedUnexpectedly_is500Json() throws Exception {
        try (var server = LocalServer.start(new Failing(new IllegalArgumentException("a bug")))) {
            var response = server.get("/x");
            assertEquals(HttpStatus.INTERNAL_SERVER_ERROR_500, response.getStatus());
            assertEquals(java.util.Map.of("message", "Server Error"), JsonTree.object(response.getContent())); // no class name
        }
    }

    @Test
    void malformedRequest_isRejectedWithJson() throws Exception {
        try (var server = LocalServer.start(new Failing(new IllegalStateException("never reached")))) {
            var response = server.raw("GET /x HTTP/1.1\r\nHost: localhost\r\nNot a header\r\n\r\n");
            assertEquals(HttpStatus.BAD_REQUEST_400, response.getStatus());
            assertEquals(JsonResponses.CONTENT_TYPE, response.get("Content-Type"));
            assertEquals(true, JsonTree.object(response.getContent()).containsKey("message"), response.getContent());
        }
    }

    @Test
    void statusException_nonErrorStatus_isRejected() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new HttpStatusException(200, "ok"));
    }

}

package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RequestSizeLimitHandlerTest {

    /** Reads the whole body and answers its length, or fails the callback with the read failure. */
    static final class Length extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            Content.Source.asByteArrayAsync(request, 1 << 20, Promise.Invocable.from(Invocable.InvocationType.NON_BLOCKING,
                    body -> Content.Sink.write(response, true, String.valueOf(body.length), callback), callback::failed));
            return true;
        }
    }

    private static String chunked(int bytes) {
        return "PUT /x HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
               + Integer.toHexString(bytes) + "\r\n" + "a".repeat(bytes) + "\r\n0\r\n\r\n";
    }

    @Test
    void declaredLengthOverLimit_returns413Json() throws Exception {
        try (var server = LocalServer.start(new RequestSizeLimitHandler(10, new Length()))) {
            HttpTester.Response response = server.raw("PUT /x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\nConnection: close\r\n\r\n"
                                                      + "a".repeat(11));
            assertEquals(HttpStatus.PAYLOAD_TOO_LARGE_413, response.getStatus());
            assertEquals(Map.of("message", "Request content length 11 exceeds limit of 10 bytes"), JsonTree.parse(response.getContent()));
        }
    }

    @Test
    void chunkedBodyOverLimit_returns413Json() throws Exception {
        try (var server = LocalServer.start(new RequestSizeLimitHandler(10, new Length()))) {
            HttpTester.Response response = server.raw(chunked(11));
            assertEquals(HttpStatus.PAYLOAD_TOO_LARGE_413, response.getStatus());
            assertEquals(Map.of("message", "Request content length 11 exceeds limit of 10 bytes (counted after inflation)"),
                         JsonTree.parse(response.getContent()));
        }
    }

    @Test
    void bodyAtLimit_isServed() throws Exception {
        try (var server = LocalServer.start(new RequestSizeLimitHandler(10, new Length()))) {
            HttpTester.Response response = server.raw(chunked(10));
            assertEquals(HttpStatus.OK_200, response.getStatus());
            assertEquals("10", response.getContent());
        }
    }

}

package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BindingRouterTest {

    static final class Answer extends Handler.Abstract.NonBlocking {
        private final String text;
        Answer(String text) { this.text = text; }
        @Override public boolean handle(Request request, Response response, Callback callback) {
            Content.Sink.write(response, true, text, callback);
            return true;
        }
    }

    static final class Decline extends Handler.Abstract.NonBlocking {
        @Override public boolean handle(Request request, Response response, Callback callback) { return false; }
    }

    private static HandlerRegistration registration(String id, Handler handler, String binding) {
        return new HandlerRegistration(id, handler.getClass().getName(), "test", List.of(BindingPattern.parse(binding)), handler);
    }

    @Test
    void handle_overlappingBindings_mostSpecificWins() throws Exception {
        var router = new BindingRouter(List.of(registration("all", new Answer("all"), "http://*/*"),
                                               registration("my", new Answer("my"), "http://*/my/*")));
        try (var server = LocalServer.start(router)) {
            assertEquals("my", server.get("/my/thing").getContent());
            assertEquals("all", server.get("/other").getContent());
        }
    }

    @Test
    void handle_unboundPath_returns404Json() throws Exception {
        var router = new BindingRouter(List.of(registration("my", new Answer("my"), "http://*/my/*")));
        try (var server = LocalServer.start(router)) {
            var response = server.get("/nope");
            assertEquals(HttpStatus.NOT_FOUND_404, response.getStatus());
            assertEquals(JsonResponses.CONTENT_TYPE, response.get("Content-Type"));
            assertEquals(Map.of("message", "Nothing is bound to path '/nope'"), JsonTree.parse(response.getContent()));
        }
    }

    @Test
    void handle_handlerDeclines_returns404Json() throws Exception {
        var router = new BindingRouter(List.of(registration("d", new Decline(), "http://*/d")));
        try (var server = LocalServer.start(router)) {
            assertEquals(HttpStatus.NOT_FOUND_404, server.get("/d").getStatus());
        }
    }

    @Test
    void start_mountedHandlers_areStarted() throws Exception {
        var answer = new Answer("x");
        var server = LocalServer.start(new BindingRouter(List.of(registration("a", answer, "http://*/a"))));
        try {
            assertEquals(true, answer.isStarted());
        }
        finally {
            server.close();
        }
    }

}

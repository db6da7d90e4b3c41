package io.sluice.container.document;

import io.sluice.http.common.BodySlabs;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExchangeTest {

    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void aLeasedBody_isReleasedOnceWritten_andARefusedOne_atOnce() throws Exception {
        List<BodySlabs.Lease> sent = new CopyOnWriteArrayList<>(), refused = new CopyOnWriteArrayList<>();
        List<Boolean> refusedAnswers = new CopyOnWriteArrayList<>();
        // Two per request: its exchange completed (the client may have the response before the write's callback
        // ran), and the handler returned (the first answer may complete the exchange before the second is tried).
        Semaphore done = new Semaphore(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Exchange exchange = new Exchange(request, response, new Callback.Nested(callback) {
                    @Override
                    public void succeeded() { // after the write's callback released the sent body's lease
                        super.succeeded();
                        done.release();
                    }
                });
                BodySlabs.Lease first = lease("{\"n\":1}"), second = lease("{\"n\":2}");
                sent.add(first);
                refused.add(second);
                exchange.respond(200, first.buffer(), first, Map.of());
                refusedAnswers.add(exchange.respond(500, second.buffer(), second, Map.of()));
                done.release(); // the first answer may have completed the exchange before this
                return true;
            }
        });
        server.start();
        for (int i = 0; i < 3; i++) {
            String response = connector.getResponse("GET /document/v1/x HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertTrue(response.startsWith("HTTP/1.1 200"), response);
            assertTrue(response.endsWith("{\"n\":1}"), response);
        }
        assertTrue(done.tryAcquire(6, 30, TimeUnit.SECONDS), "all three exchanges completed and handlers returned");
        assertEquals(3, sent.size());
        assertTrue(sent.stream().allMatch(BodySlabs.Lease::isReleased), "sent bodies are released once written");
        assertTrue(refused.stream().allMatch(BodySlabs.Lease::isReleased), "a body not sent is released by the refused call");
        assertFalse(refusedAnswers.contains(true));
    }

    private static BodySlabs.Lease lease(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        BodySlabs.Lease lease = BodySlabs.lease(bytes.length);
        System.arraycopy(bytes, 0, lease.buffer().array(), lease.buffer().position(), bytes.length);
        return lease;
    }

}

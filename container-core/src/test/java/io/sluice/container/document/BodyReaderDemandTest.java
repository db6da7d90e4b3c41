package io.sluice.container.document;

import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the body reader waits for a body that has not arrived yet. */
class BodyReaderDemandTest {

    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);
    private final List<Invocable.InvocationType> demanded = new CopyOnWriteArrayList<>();
    private final CountDownLatch waiting = new CountDownLatch(1);

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void overHttp2_demandForMoreOfTheBody_isNonBlocking_soJettyMayRunItOnTheReadingThread() throws Exception {
        assertEquals(List.of(Invocable.InvocationType.NON_BLOCKING), demandsForABodyInTwoParts(HttpVersion.HTTP_2));
    }

    @Test
    void overHttp11_demandForMoreOfTheBody_isBlocking_soJettyRunsItOnAThreadOfItsOwn() throws Exception {
        assertEquals(List.of(Invocable.InvocationType.BLOCKING), demandsForABodyInTwoParts(HttpVersion.HTTP_1_1));
    }

    /** The invocation types of the reader's demands for a body that arrives in two parts, over {@code version}. */
    private List<Invocable.InvocationType> demandsForABodyInTwoParts(HttpVersion version) throws Exception {
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Request watched = new Request.Wrapper(request) {
                    @Override
                    public ConnectionMetaData getConnectionMetaData() {
                        return new ConnectionMetaData.Wrapper(super.getConnectionMetaData()) {
                            @Override public HttpVersion getHttpVersion() { return version; }
                        };
                    }

                    @Override
                    public void demand(Runnable demandCallback) {
                        demanded.add(Invocable.getInvocationType(demandCallback));
                        super.demand(demandCallback);
                        waiting.countDown();
                    }
                };
                BodyReader.read(watched, 1 << 20, MemoryBudget.of(1 << 20)).whenComplete((body, failure) -> {
                    String text = failure == null ? "read " + body.length() : "failed " + failure;
                    response.write(true, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), callback);
                });
                return true;
            }
        });
        server.start();

        try (LocalConnector.LocalEndPoint client = connector.connect()) {
            client.addInput("POST /x HTTP/1.1\r\nHost: local\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 11\r\nConnection: close\r\n\r\n{\"a\":");
            assertTrue(waiting.await(10, TimeUnit.SECONDS), "the reader waits for the rest of the body");
            client.addInput("\"bcd\"}");
            String response = client.getResponse(false, 10, TimeUnit.SECONDS);
            assertTrue(response.endsWith("read 11"), response);
        }
        return demanded.stream().distinct().toList();
    }

}

package io.sluice.http;

import io.sluice.container.HandlerRegistration;
import io.sluice.container.ServiceHealth;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GracefulStopTest {

    @TempDir
    Path certificates;

    /** Holds each request until the test releases it; completes from the test thread, never blocking Jetty's. */
    static final class HeldHandler extends Handler.Abstract.NonBlocking {
        final CountDownLatch arrived = new CountDownLatch(1);
        final CompletableFuture<Void> release = new CompletableFuture<>();

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            arrived.countDown();
            release.thenRun(() -> Content.Sink.write(response, true, "done", callback));
            return true;
        }
    }

    /** A kept-alive HTTP/1.1 connection that sends one request at a time and reads the status line and body. */
    static final class KeepAliveConnection implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;

        KeepAliveConnection(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(30_000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
        }

        int get(String path) throws IOException {
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String status = in.readLine();
            int length = 0;
            for (String line = in.readLine(); line != null && ! line.isEmpty(); line = in.readLine())
                if (line.toLowerCase().startsWith("content-length:"))
                    length = Integer.parseInt(line.substring(15).trim());
            in.skip(length);
            return Integer.parseInt(status.split(" ")[1]);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void stop_inFlightRequestCompletes_newRequestGets503() throws Exception {
        var held = new HeldHandler();
        TestPki pki = TestPki.create(certificates);
        try (var fixture = ServerFixture.start(pki, ServerFixture.cluster(pki, java.util.List.of(), io.sluice.config.AccessLogConfig.disabled()),
                                               HandlerRegistration.of("test", held, "http://*/held"));
             var idle = new KeepAliveConnection(fixture.server().port(ServerFixture.PLAIN))) {
            assertEquals(HttpStatus.OK_200, idle.get("/status.html"));
            CompletableFuture<ContentResponse> inFlight =
                    new CompletableResponseListener(fixture.request(Transport.H1, "/held")).send();
            assertEquals(true, held.arrived.await(30, TimeUnit.SECONDS));

            CompletableFuture<Void> stopped = CompletableFuture.runAsync(fixture.server()::stop);
            fixture.server().stopping().get(30, TimeUnit.SECONDS);
            assertEquals(ServiceHealth.Status.DOWN, fixture.server().health().status());
            assertEquals(HttpStatus.SERVICE_UNAVAILABLE_503, idle.get("/status.html"));

            held.release.complete(null);
            ContentResponse response = inFlight.get(30, TimeUnit.SECONDS);
            assertEquals(HttpStatus.OK_200, response.getStatus());
            assertEquals("done", response.getContentAsString());
            stopped.get(30, TimeUnit.SECONDS);
        }
    }

}

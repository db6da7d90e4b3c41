package io.sluice.feed;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The buffers and windows of streamed (visit) clients: bounded however slow the reader and however many connections. */
class StreamBuffersTest {

    @Test
    void streamedClients_shareOnePool_thatKeepsWhatASlowReaderReturns() {
        FeedClientBuilder settings = FeedClientBuilder.create(URI.create("http://localhost:1/")).setConnectionsPerEndpoint(2);
        try (HttpClients clients = new HttpClients(settings, 2)) {
            HttpClient first = clients.newClient(false, 16, 1 << 20, 4 << 20);
            HttpClient second = clients.newClient(false, 16, 1 << 20, 4 << 20);
            assertSame(first.getByteBufferPool(), second.getByteBufferPool());
            assertSame(clients.streamBuffers(), first.getByteBufferPool());

            // A reader that fell behind holds many network buffers at once; all of them must come back to the pool, or
            // each later read allocates direct memory that only a garbage collection frees. Jetty's per-client default
            // kept as many per size as the client had threads (here 10).
            ByteBufferPool pool = first.getByteBufferPool();
            List<RetainableByteBuffer> held = new ArrayList<>();
            for (int i = 0; i < 200; i++) held.add(pool.acquire(64 << 10, true));
            held.forEach(RetainableByteBuffer::release);
            ArrayByteBufferPool array = (ArrayByteBufferPool) pool;
            assertEquals(200, array.getAvailableDirectByteBufferCount());

            // Acquiring them again reuses them: no new direct memory.
            long before = array.getDirectMemory();
            held.clear();
            for (int i = 0; i < 200; i++) held.add(pool.acquire(64 << 10, true));
            assertEquals(before, array.getDirectMemory());
            assertEquals(0, array.getAvailableDirectByteBufferCount());
            held.forEach(RetainableByteBuffer::release);
            assertTrue(array.getDirectMemory() <= HttpClients.STREAM_BUFFER_BYTES);
        }
    }

    @Test
    void streamedClients_readInLargeBuffers_thoughTheTransportConfiguresItsHttp2Client() {
        FeedClientBuilder settings = FeedClientBuilder.create(URI.create("http://localhost:1/"));
        try (HttpClients clients = new HttpClients(settings, 1)) {
            HttpClient client = clients.newClient(false, 16, 1 << 20, 4 << 20);
            HTTP2Client http2 = ((HttpClientTransportOverHTTP2) client.getHttpClientTransport()).getHTTP2Client();
            assertEquals(HttpClients.STREAM_INPUT_BUFFER_BYTES, http2.getInputBufferSize());
            assertEquals(1 << 20, http2.getMaxFrameSize());
            assertEquals(4 << 20, http2.getInitialSessionRecvWindow());
            assertEquals(1 << 20, http2.getInitialStreamRecvWindow());
            assertEquals(30_000, http2.getConnectTimeout());
        }
    }

    @Test
    void sessionWindows_shareOneBudget_withinOneAnd16MiB() {
        assertEquals(16 << 20, VisitClient.sessionWindow(1));
        assertEquals(16 << 20, VisitClient.sessionWindow(4));
        assertEquals(8 << 20, VisitClient.sessionWindow(8));
        assertEquals(2 << 20, VisitClient.sessionWindow(32));
        assertEquals(1 << 20, VisitClient.sessionWindow(1024));
        for (int connections = 1; connections <= 64; connections++)
            assertTrue((long) connections * VisitClient.sessionWindow(connections) <= Math.max(VisitClient.WINDOWS_BYTES, connections << 20));
        // what the windows let the server send ahead fits in what the pool keeps
        assertTrue(VisitClient.WINDOWS_BYTES <= HttpClients.STREAM_BUFFER_BYTES);
    }

}

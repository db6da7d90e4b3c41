package io.sluice.http;

import io.sluice.config.ConnectorConfig;
import io.sluice.config.ServerConfig;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.io.WindowRateControl;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Vespa defaults reach Jetty's connector and HTTP/2 settings. */
class ConnectorsTest {

    private final ServerConnector connector =
            Connectors.create(new Server(), ServerConfig.cleartext("plain", 0), Optional.empty(), Optional.empty(), Duration.ofSeconds(300));

    @Test
    void cleartext_servesHttp11ThenH2c() {
        assertEquals(List.of("http/1.1", "h2c"), connector.getProtocols());
    }

    @Test
    void connector_usesVespaTimeouts() {
        assertEquals(180_000, connector.getIdleTimeout());
        assertEquals(1_000, connector.getShutdownIdleTimeout());
        assertEquals("plain", connector.getName());
    }

    @Test
    void http2_usesVespaWindowsAndStreams() {
        var h2 = connector.getConnectionFactory(HTTP2CServerConnectionFactory.class);
        assertEquals(512, h2.getMaxConcurrentStreams());
        assertEquals(600_000, h2.getStreamIdleTimeout());
        assertEquals(1 << 24, h2.getInitialSessionRecvWindow());
        assertEquals(1 << 20, h2.getInitialStreamRecvWindow());
        assertInstanceOf(WindowRateControl.Factory.class, h2.getRateControlFactory());
    }

    @Test
    void http2_announcesNoHttp3() {
        HttpConfiguration http2 = connector.getConnectionFactory(HTTP2CServerConnectionFactory.class)
                                           .getHttpConfiguration();
        assertNull(http2.getCustomizer(HTTP2ServerConnectionFactory.AltSvcCustomizer.class));
        assertFalse(http2.getCustomizers().isEmpty()); // the header size check stays
    }

    @Test
    void httpConfiguration_hidesServerAndSizesHeaders() {
        HttpConfiguration http = connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration();
        assertFalse(http.getSendServerVersion());
        assertEquals(64 * 1024, http.getRequestHeaderSize());
        assertEquals(64 * 1024, http.getResponseHeaderSize());
        assertEquals(64 * 1024, http.getOutputBufferSize());
    }

    @Test
    void connectors_readIntoBuffersOfTheirOwnSize_andAggregateWritesInLargeOnes() {
        assertEquals(Connectors.INPUT_BUFFER_BYTES,
                     connector.getConnectionFactory(HttpConnectionFactory.class).getInputBufferSize());
        assertEquals(Connectors.INPUT_BUFFER_BYTES,
                     connector.getConnectionFactory(HTTP2CServerConnectionFactory.class).getInputBufferSize());
        assertNotEquals(AggregateBufferPool.DEFAULT_AGGREGATE_BYTES, Connectors.INPUT_BUFFER_BYTES);
        var pool = assertInstanceOf(AggregateBufferPool.class, connector.getByteBufferPool());
        assertSame(connector.getServer().getByteBufferPool(), pool.getWrapped());
    }

    @Test
    void http2Responses_leaveFromLargeBuffers_notFromJettysDefaultAggregates() throws Exception {
        var pool = new CountingPool();
        var server = new Server(new QueuedThreadPool(), null, pool);
        server.setHandler(new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.write(true, ByteBuffer.wrap(new byte[1024]), callback);
                return true;
            }
        });
        server.addConnector(Connectors.create(server, ServerConfig.cleartext("plain", 0), Optional.of("127.0.0.1"),
                                              Optional.empty(), Duration.ofSeconds(1)));
        var client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
        try {
            server.start();
            client.start();
            int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
            List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                var request = client.newRequest("http://127.0.0.1:" + port + "/" + i);
                responses.add(new CompletableResponseListener(request).send());
            }
            for (var response : responses)
                assertEquals(1024, response.get(30, TimeUnit.SECONDS).getContent().length);
        }
        finally {
            client.stop();
            server.stop();
        }
        assertTrue(pool.acquired(64 * 1024) > 0, "write buffers of 64 KiB");
        assertEquals(0, pool.acquired(AggregateBufferPool.DEFAULT_AGGREGATE_BYTES), "none of Jetty's default size");
    }

    /** The server's pool, counting what it is asked for by size. */
    private static final class CountingPool extends ArrayByteBufferPool {

        private final Map<Integer, AtomicInteger> acquired = new ConcurrentHashMap<>();

        @Override
        public RetainableByteBuffer.Mutable acquire(int size, boolean direct) {
            acquired.computeIfAbsent(size, __ -> new AtomicInteger()).incrementAndGet();
            return super.acquire(size, direct);
        }

        int acquired(int size) {
            AtomicInteger count = acquired.get(size);
            return count == null ? 0 : count.get();
        }

    }

    @Test
    void overrides_fromServicesXmlReachJetty() {
        var settings = new ConnectorConfig(Duration.ofSeconds(90), Duration.ofSeconds(30), 100, 1 << 22, 1 << 18, 1000,
                                           16 * 1024, 16 * 1024, 32 * 1024);
        var custom = Connectors.create(new Server(), new ServerConfig("c", 0, Optional.empty(), settings), Optional.empty(), Optional.empty(),
                                       Duration.ofSeconds(300));
        assertEquals(90_000, custom.getIdleTimeout());
        assertEquals(100, custom.getConnectionFactory(HTTP2CServerConnectionFactory.class).getMaxConcurrentStreams());
        assertEquals(16 * 1024, custom.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().getRequestHeaderSize());
    }

    @Test
    void http2RoundsCoalesceTheirWrites_onlyWhenNoHandlerBlocks() throws Exception {
        var network = new ByteArrayEndPoint();
        var nonBlocking = new Server();
        nonBlocking.setHandler(new HelloHandler());
        assertEquals(Invocable.InvocationType.NON_BLOCKING, nonBlocking.getInvocationType());
        assertTrue(Connectors.fairEndPoint(new ServerConnector(nonBlocking), network).coalescesRounds());

        var blocking = new Server();
        blocking.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                callback.succeeded();
                return true;
            }
        });
        assertEquals(Invocable.InvocationType.BLOCKING, blocking.getInvocationType());
        assertFalse(Connectors.fairEndPoint(new ServerConnector(blocking), network).coalescesRounds());
    }

}

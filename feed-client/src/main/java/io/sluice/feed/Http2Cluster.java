package io.sluice.feed;

import io.sluice.http.common.BodySlabs;
import org.eclipse.jetty.http.HostPortHttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.HTTP2Session;
import org.eclipse.jetty.http2.HTTP2Stream;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.HTTP2ClientConnectionFactory;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.GoAwayFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.Transport;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Sends requests as HTTP/2 streams over several sessions (connections) per endpoint, on Jetty's low-level HTTP/2
 * client: no per-request URI parsing, conversation or listener chain, which the high-level client spends most of its
 * time on. Each request goes to the session with the fewest streams in flight, never beyond the smaller of the
 * configured and the server's stream limit; requests that find every session full wait in a queue. A session that
 * closes (GOAWAY, failure) is replaced on the next request. A stream that gets no frame from the server for
 * {@value #DEADLINE_GRACE_MILLIS} ms past its request's deadline fails with a {@link TimeoutException}, so a server
 * that never answers cannot hold an operation beyond its timeout.
 */
final class Http2Cluster implements Cluster {

    private static final byte[] NO_CONTENT = new byte[0];
    private static final int MAX_RESPONSE_BYTES = 64 << 20;
    /** How long past an operation's deadline the client waits for the server's own timeout answer. */
    static final long DEADLINE_GRACE_MILLIS = 1_000;

    /** Jetty's HTTP/2 sessions over {@link ReadBatchedEndPoint}s. */
    private static final ClientConnectionFactory READ_BATCHED = new ClientConnectionFactory() {
        private final HTTP2ClientConnectionFactory http2 = new HTTP2ClientConnectionFactory();
        @Override public org.eclipse.jetty.io.Connection newConnection(EndPoint endPoint, Map<String, Object> context) throws IOException {
            return http2.newConnection(new ReadBatchedEndPoint(endPoint), context);
        }
    };

    private final HttpClients clients;
    private final Connection[] connections;
    private final HttpFields staticHeaders;
    private final Map<String, Supplier<String>> dynamicHeaders;
    private final Queue<Exchange> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger next = new AtomicInteger();

    Http2Cluster(FeedClientBuilder settings) {
        int count = settings.endpoints.size() * settings.connectionsPerEndpoint;
        this.clients = new HttpClients(settings, count);
        HttpFields.Mutable headers = HttpFields.build().put(HttpHeader.USER_AGENT, HttpClients.USER_AGENT);
        settings.headers.forEach((name, value) -> headers.put(name, value.get()));
        this.staticHeaders = headers.asImmutable();
        this.dynamicHeaders = Map.copyOf(settings.headers);
        this.connections = new Connection[count];
        int i = 0;
        for (URI endpoint : settings.endpoints) {
            boolean tls = "https".equals(endpoint.getScheme());
            HTTP2Client http2 = clients.newHttp2Client(tls, Math.max(1, Math.min(settings.connectionsPerEndpoint, Runtime.getRuntime().availableProcessors())));
            http2.setStreamIdleTimeout(settings.timeout.toMillis() + 5_000);
            clients.manage(http2);
            int port = endpoint.getPort() != -1 ? endpoint.getPort() : tls ? 443 : 80;
            for (int j = 0; j < settings.connectionsPerEndpoint; j++)
                connections[i++] = new Connection(http2, tls, endpoint.getHost(), port, settings.maxStreamsPerConnection);
        }
    }

    @Override public void dispatch(HttpRequest request, Callback callback) {
        Exchange exchange = new Exchange(request, callback);
        Connection connection = acquire();
        if (connection != null) connection.send(exchange);
        else {
            waiting.add(exchange);
            sendWaiting();
        }
    }

    /**
     * The connection whose responses this thread is handling, if it has room, else the one with the fewest streams;
     * with one stream taken; null when all are full. So a session that answers gets its next requests back, and they
     * leave together, in one write, when the read is handled ({@link ReadBatchedEndPoint}), where sending each to the
     * least busy session made one write per request (also with a read of dozens of answers).
     */
    private Connection acquire() {
        Thread thread = Thread.currentThread();
        for (Connection connection : connections) {
            if ( ! connection.readBy(thread)) continue;
            for (int inflight; (inflight = connection.inflight.get()) < connection.maxStreams; )
                if (connection.inflight.compareAndSet(inflight, inflight + 1)) return connection;
            break;
        }
        int start = Math.floorMod(next.getAndIncrement(), connections.length);
        while (true) {
            Connection best = null;
            int bestInflight = Integer.MAX_VALUE;
            for (int i = 0; i < connections.length; i++) {
                Connection candidate = connections[(start + i) % connections.length];
                int inflight = candidate.inflight.get();
                if (inflight < bestInflight && inflight < candidate.maxStreams) {
                    best = candidate;
                    bestInflight = inflight;
                    if (inflight == 0) break;
                }
            }
            if (best == null) return null;
            if (best.inflight.compareAndSet(bestInflight, bestInflight + 1)) return best;
        }
    }

    private void release(Connection connection) {
        connection.inflight.decrementAndGet();
        if ( ! waiting.isEmpty()) sendWaiting();
    }

    private void sendWaiting() {
        while ( ! waiting.isEmpty()) {
            Connection connection = acquire();
            if (connection == null) return;
            Exchange exchange = waiting.poll();
            if (exchange == null) {
                connection.inflight.decrementAndGet();
                return;
            }
            connection.send(exchange);
        }
    }

    @Override public void reconnect() {
        for (Connection connection : connections) connection.replace();
    }

    /** Why TLS connections may be refused, if a server asked for a client certificate this client could not present. */
    java.util.Optional<String> clientCertificateProblem() {
        return clients.clientCertificateProblem();
    }

    @Override public void close() {
        for (Exchange exchange; (exchange = waiting.poll()) != null; )
            exchange.callback.failed(new IOException("Client closed"));
        clients.close();
    }

    /** One session at a time to an endpoint, replaced when it closes. */
    private final class Connection implements Session.Listener {

        final HTTP2Client http2;
        final boolean tls;
        final String host;
        final int port;
        final HostPortHttpField authority;
        final int configuredMaxStreams;
        final AtomicInteger inflight = new AtomicInteger();
        volatile int maxStreams;
        private volatile CompletableFuture<Session> session;
        private volatile ReadBatchedEndPoint endPoint; // the latest session's

        /** Whether {@code thread} is handling what the session read. */
        boolean readBy(Thread thread) {
            ReadBatchedEndPoint current = endPoint;
            return current != null && current.isReadBy(thread);
        }

        Connection(HTTP2Client http2, boolean tls, String host, int port, int maxStreams) {
            this.http2 = http2;
            this.tls = tls;
            this.host = host;
            this.port = port;
            this.authority = new HostPortHttpField(host, port);
            this.configuredMaxStreams = maxStreams;
            this.maxStreams = maxStreams;
        }

        void send(Exchange exchange) {
            exchange.connection = this;
            CompletableFuture<Session> current = session();
            Session ready = current.isDone() && ! current.isCompletedExceptionally() ? current.join() : null;
            if (ready != null) exchange.start(ready);
            else current.whenComplete((s, failure) -> {
                if (failure != null) exchange.fail(failure);
                else exchange.start(s);
            });
        }

        private CompletableFuture<Session> session() {
            CompletableFuture<Session> current = session;
            if (current != null && usable(current)) return current;
            synchronized (this) {
                if (session == null || ! usable(session)) {
                    InetSocketAddress address = new InetSocketAddress(host, port);
                    session = tls ? connectTls(address) : connect(null, address);
                }
                return session;
            }
        }

        /** A TLS session; one refused while offering only ChaCha20-Poly1305 is opened again with the default suites. */
        private CompletableFuture<Session> connectTls(InetSocketAddress address) {
            var ssl = http2.getClientConnector().getSslContextFactory();
            boolean chaChaOnly = clients.offersChaChaOnly();
            CompletableFuture<Session> first = connect(ssl, address);
            if ( ! chaChaOnly) return first;
            return first.exceptionallyCompose(failure -> clients.chaChaRefused(failure) ? connect(ssl, address)
                                                                                        : CompletableFuture.failedFuture(failure));
        }

        /** A session (over TLS if {@code ssl} is not null) whose requests sent while it reads leave in one write. */
        private CompletableFuture<Session> connect(SslContextFactory.Client ssl, InetSocketAddress address) {
            Promise.Completable<Session> promise = new Promise.Completable<>();
            Map<String, Object> context = new ConcurrentHashMap<>();
            context.put(ClientConnectionFactory.CONTEXT_KEY, READ_BATCHED);
            http2.connect(Transport.TCP_IP, ssl, address, this, promise, context);
            return promise.thenApply(session -> {
                if (session instanceof HTTP2Session http2Session && http2Session.getEndPoint() instanceof ReadBatchedEndPoint batched)
                    endPoint = batched;
                return session;
            });
        }

        /** Makes the next request open a new session; the current one closes once its streams completed. */
        void replace() {
            CompletableFuture<Session> old;
            synchronized (this) {
                old = session;
                session = null;
            }
            if (old != null) old.thenAccept(Session::shutdown);
        }

        private boolean usable(CompletableFuture<Session> future) {
            if ( ! future.isDone()) return true;
            return ! future.isCompletedExceptionally() && ! future.join().isClosed();
        }

        @Override public void onSettings(Session session, SettingsFrame frame) {
            Integer max = frame.getSettings().get(SettingsFrame.MAX_CONCURRENT_STREAMS);
            if (max != null) maxStreams = Math.max(1, Math.min(configuredMaxStreams, max));
        }

        @Override public void onGoAway(Session closing, GoAwayFrame frame) { forget(closing); }

        @Override public void onClose(Session closed, GoAwayFrame frame, org.eclipse.jetty.util.Callback callback) {
            forget(closed);
            callback.succeeded();
        }

        @Override public void onFailure(Session failed, Throwable failure, org.eclipse.jetty.util.Callback callback) {
            forget(failed);
            callback.succeeded();
        }

        private synchronized void forget(Session old) {
            CompletableFuture<Session> current = session;
            if (current != null && current.isDone() && ! current.isCompletedExceptionally() && current.join() == old) session = null;
        }

    }

    /** One request and its response: a stream listener that completes the callback exactly once. */
    private final class Exchange implements Stream.Listener, Promise<Stream> {

        final HttpRequest request;
        final Callback callback;
        final AtomicBoolean done = new AtomicBoolean();
        Connection connection;
        int status = -1;
        long millisLeft;
        byte[] body = NO_CONTENT;
        int length = 0;

        Exchange(HttpRequest request, Callback callback) {
            this.request = request;
            this.callback = callback;
        }

        void start(Session session) {
            millisLeft = Math.max(1, TimeUnit.NANOSECONDS.toMillis(request.deadlineNanos() - System.nanoTime()));
            String path = request.pathAndQuery();
            String pathQuery = path + (path.indexOf('?') < 0 ? "?" : "&") + "timeout=" + millisLeft + "ms";
            HttpFields.Mutable fields = HttpFields.build(staticHeaders.size() + 3).add(staticHeaders);
            if ( ! dynamicHeaders.isEmpty()) dynamicHeaders.forEach((name, value) -> fields.put(name, value.get()));
            boolean hasBody = request.body().length > 0;
            if (hasBody) {
                fields.put(HttpHeader.CONTENT_TYPE, "application/json");
                if (request.gzipped()) fields.put(HttpHeader.CONTENT_ENCODING, "gzip");
            }
            MetaData.Request metaData = new MetaData.Request(request.method(), connection.tls ? "https" : "http", connection.authority,
                                                             pathQuery, HttpVersion.HTTP_2, fields, hasBody ? request.body().length : -1);
            HeadersFrame headers = new HeadersFrame(metaData, null, ! hasBody);
            HTTP2Stream.FrameList frames = hasBody // headers and body queued together: one write
                    ? new HTTP2Stream.FrameList(headers, new DataFrame(0, BodySlabs.of(request.body()), true), null)
                    : new HTTP2Stream.FrameList(headers);
            try {
                ((HTTP2Session) session).newStream(frames, this, this);
            }
            catch (RuntimeException e) {
                fail(e);
            }
        }

        @Override public void succeeded(Stream stream) {
            stream.setIdleTimeout(millisLeft + DEADLINE_GRACE_MILLIS);
        }

        @Override public void failed(Throwable failure) { fail(failure); }

        @Override public void onHeaders(Stream stream, HeadersFrame frame) {
            MetaData metaData = frame.getMetaData();
            if (metaData.isResponse()) {
                int code = ((MetaData.Response) metaData).getStatus();
                if (code < 200) { // interim response: the real one follows
                    stream.demand();
                    return;
                }
                status = code;
            }
            if (frame.isEndStream()) complete();
            else stream.demand();
        }

        @Override public void onDataAvailable(Stream stream) {
            while (true) {
                Stream.Data data = stream.readData();
                if (data == null) {
                    stream.demand();
                    return;
                }
                ByteBuffer buffer = data.frame().getByteBuffer();
                int remaining = buffer.remaining();
                if (length + remaining > MAX_RESPONSE_BYTES) {
                    data.release();
                    stream.reset(new ResetFrame(stream.getId(), org.eclipse.jetty.http2.ErrorCode.CANCEL_STREAM_ERROR.code), org.eclipse.jetty.util.Callback.NOOP);
                    fail(new IOException("Response larger than " + MAX_RESPONSE_BYTES + " bytes"));
                    return;
                }
                if (length + remaining > body.length) body = Arrays.copyOf(body, Math.max(length + remaining, Math.max(256, body.length * 2)));
                buffer.get(body, length, remaining);
                length += remaining;
                boolean last = data.frame().isEndStream();
                data.release();
                if (last) {
                    complete();
                    return;
                }
            }
        }

        @Override public void onReset(Stream stream, ResetFrame frame, org.eclipse.jetty.util.Callback callback) {
            fail(new IOException("Stream reset by the server, error " + frame.getError()));
            callback.succeeded();
        }

        @Override public void onIdleTimeout(Stream stream, TimeoutException timeout, Promise<Boolean> promise) {
            fail(new TimeoutException("No response within " + (millisLeft + DEADLINE_GRACE_MILLIS) + " ms (the operation's timeout of "
                                      + millisLeft + " ms, plus " + DEADLINE_GRACE_MILLIS + " ms)"));
            promise.succeeded(true);
        }

        @Override public void onFailure(Stream stream, int error, String reason, Throwable failure, org.eclipse.jetty.util.Callback callback) {
            fail(failure != null ? failure : new IOException("Stream failed: " + reason));
            callback.succeeded();
        }

        private void complete() {
            if ( ! done.compareAndSet(false, true)) return;
            release(connection);
            if (status < 0) callback.failed(new IOException("Response without status"));
            else callback.completed(new HttpResponse(status, length == body.length ? body : Arrays.copyOf(body, length)));
        }

        void fail(Throwable failure) {
            if ( ! done.compareAndSet(false, true)) return;
            if (connection != null) release(connection);
            callback.failed(failure instanceof IOException || failure instanceof TimeoutException ? failure : new IOException(failure));
        }

    }

}

package io.sluice.feed;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * A /document/v1 stand-in on loopback, speaking HTTP/1.1 and h2c (prior knowledge). Each request, with its body
 * inflated, goes to a function that answers a status and body, {@link Reply#CLOSE} to drop the connection, or
 * {@link Reply#GOAWAY} to send an HTTP/2 GOAWAY and close the session, or {@link Reply#HANG} to never answer (the
 * request is failed when the stub closes).
 */
public final class StubServer implements AutoCloseable {

    public record Received(String method, String path, String query, String body, String protocol, String contentEncoding,
                           String acceptEncoding, int remotePort) { }

    public record Reply(int status, String body, String contentType) {
        public static final Reply CLOSE = new Reply(-1, "", "");
        public static final Reply GOAWAY = new Reply(-2, "", "");
        public static final Reply HANG = new Reply(-3, "", "");
        public static Reply json(int status, String body) { return new Reply(status, body, "application/json"); }
    }

    private final Server server = new Server();
    private final java.util.Queue<Callback> hanging = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final ServerConnector connector;
    private final int port;

    public StubServer(Function<Received, Reply> responder) {
        HttpConfiguration config = new HttpConfiguration();
        connector = new ServerConnector(server, new HttpConnectionFactory(config), new HTTP2CServerConnectionFactory(config));
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override public boolean handle(Request request, Response response, Callback callback) {
                String encoding = request.getHeaders().get(HttpHeader.CONTENT_ENCODING);
                Content.Source.asByteArrayAsync(request, 1 << 24, new Promise.Invocable<byte[]>() {
                    @Override public void succeeded(byte[] bytes) {
                        String body = new String("gzip".equals(encoding) ? gunzip(bytes) : bytes, StandardCharsets.UTF_8);
                        Reply reply = responder.apply(new Received(request.getMethod(), request.getHttpURI().getPath(),
                                                                   request.getHttpURI().getQuery(), body,
                                                                   request.getConnectionMetaData().getProtocol(), encoding,
                                                                   request.getHeaders().get(HttpHeader.ACCEPT_ENCODING),
                                                                   Request.getRemotePort(request)));
                        if (reply.status() == -2 && request.getConnectionMetaData().getConnection() instanceof HTTP2Connection) {
                            HTTP2Connection connection = (HTTP2Connection) request.getConnectionMetaData().getConnection();
                            Runnable drop = () -> {
                                connection.getEndPoint().close();
                                callback.failed(new IOException("going away"));
                            };
                            connection.getSession().close(ErrorCode.NO_ERROR.code, "going away", Callback.from(drop, failure -> drop.run()));
                            return;
                        }
                        if (reply.status() == -3) {
                            hanging.add(callback);
                            return;
                        }
                        if (reply.status() < 0) {
                            request.getConnectionMetaData().getConnection().getEndPoint().close();
                            callback.failed(new IOException("closed by the stub"));
                            return;
                        }
                        response.setStatus(reply.status());
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
                        response.write(true, ByteBuffer.wrap(reply.body().getBytes(StandardCharsets.UTF_8)), callback);
                    }
                    @Override public void failed(Throwable failure) { callback.failed(failure); }
                });
                return true;
            }
        });
        try {
            server.start();
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
        port = connector.getLocalPort();
    }

    private static byte[] gunzip(byte[] bytes) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's address; stays the same after {@link #close()}, when nothing listens there any more. */
    public URI uri() { return URI.create("http://127.0.0.1:" + port + "/"); }

    @Override public void close() {
        for (Callback callback; (callback = hanging.poll()) != null; ) callback.failed(new IOException("stub closed"));
        try {
            server.stop();
        }
        catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

}

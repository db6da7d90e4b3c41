package io.sluice.http;

import io.sluice.config.ConnectorConfig;
import io.sluice.config.ServerConfig;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.http2.server.AbstractHTTP2ServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.WindowRateControl;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.Invocable;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.Optional;

/**
 * Builds the connector for one {@code <server>}, as Vespa's ConnectorFactory does: cleartext serves HTTP/1.1 and h2c
 * (prior knowledge and {@code Upgrade: h2c}) on one port; TLS negotiates h2 or http/1.1 by ALPN, http/1.1 without ALPN.
 */
public final class Connectors {

    static final String ALPN_H2 = "h2";
    static final String ALPN_HTTP11 = "http/1.1";

    /**
     * What HTTP/1.1 and HTTP/2 connections read into at a time: one TLS record's plaintext, one HTTP/2 frame of the
     * default largest size (Jetty's HTTP/2 factories read that much until the HTTP configuration's 8 KiB overrides it).
     * Not {@link AggregateBufferPool#DEFAULT_AGGREGATE_BYTES}, so reads are not enlarged to write buffers.
     */
    static final int INPUT_BUFFER_BYTES = 16 * 1024;

    /** How long idle connections get to close during a graceful stop, at most. */
    static final Duration SHUTDOWN_IDLE_TIMEOUT = Duration.ofSeconds(1);

    private Connectors() { }

    /**
     * A connector for {@code config} on {@code server}, not yet added to it.
     *
     * @param host the interface to bind; empty for all
     * @param tls  the TLS factory; required when {@code config} has {@code <ssl>}, ignored otherwise
     */
    public static ServerConnector create(Server server, ServerConfig config, Optional<String> host,
                                         Optional<SslContextFactory.Server> tls, Duration stopTimeout) {
        ConnectorConfig settings = config.connector();
        HttpConfiguration http = httpConfiguration(settings, config.ssl().isPresent());
        HttpConfiguration http2 = HeaderSizeLimitHandler.http2Configuration(http);
        var http1 = new HttpConnectionFactory(http);
        ByteBufferPool pool = AggregateBufferPool.of(server.getByteBufferPool());
        ServerConnector connector;
        if (config.ssl().isPresent()) {
            SslContextFactory.Server sslContextFactory =
                    tls.orElseThrow(() -> new IllegalArgumentException("Server '" + config.id() + "' has <ssl> but no TLS factory was given"));
            var h2 = configure(new HTTP2ServerConnectionFactory(http2) {
                @Override
                public Connection newConnection(Connector connector, EndPoint endPoint) {
                    return super.newConnection(connector, fairEndPoint(connector, endPoint));
                }
            }, settings);
            // ALPN ids are matched byte for byte: "http/1.1", not HttpConnectionFactory's protocol name "HTTP/1.1".
            var alpn = new ALPNServerConnectionFactory(ALPN_H2, ALPN_HTTP11);
            alpn.setDefaultProtocol(ALPN_HTTP11);
            var ssl = new SslConnectionFactory(sslContextFactory, alpn.getProtocol());
            connector = new ServerConnector(server, null, null, pool, -1, -1, ssl, alpn, h2, http1);
        }
        else {
            var h2c = configure(new HTTP2CServerConnectionFactory(http2) {
                @Override
                public Connection newConnection(Connector connector, EndPoint endPoint) {
                    return super.newConnection(connector, fairEndPoint(connector, endPoint));
                }
            }, settings);
            connector = new ServerConnector(server, null, null, pool, -1, -1, http1, h2c);
        }
        connector.setName(config.id());
        connector.setHost(host.orElse(null));
        connector.setPort(config.port());
        connector.setIdleTimeout(settings.idleTimeout().toMillis());
        connector.setShutdownIdleTimeout(Math.max(1, min(SHUTDOWN_IDLE_TIMEOUT, settings.idleTimeout(), stopTimeout).toMillis()));
        connector.setAcceptedTcpNoDelay(true);
        var firstRequest = new RequestHeadDeadline(RequestHeadDeadline.DEFAULT, (task, delay) ->
                connector.getScheduler().schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS));
        connector.addBean(firstRequest);
        connector.setReuseAddress(true);
        return connector;
    }

    /**
     * {@code endPoint} as an HTTP/2 connection's {@link FairEndPoint}, which coalesces each round's writes when no
     * handler of the server blocks: only then are the requests read answered on the reading thread, and only then may
     * it hold their writes back to the end of its round.
     */
    static FairEndPoint fairEndPoint(Connector connector, EndPoint endPoint) {
        boolean nonBlocking = connector.getServer().getInvocationType() == Invocable.InvocationType.NON_BLOCKING;
        return new FairEndPoint(endPoint, nonBlocking);
    }

    /** The HTTP settings shared by HTTP/1.1 and HTTP/2 on one connector. */
    static HttpConfiguration httpConfiguration(ConnectorConfig settings, boolean secure) {
        var http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setSendDateHeader(true);
        // As Vespa: /document/v1 ids carry %2F and empty or dot segments must reach the handler, which decides.
        http.setUriCompliance(UriCompliance.LEGACY);
        http.setRequestHeaderSize(settings.requestHeaderSize());
        http.setResponseHeaderSize(settings.responseHeaderSize());
        http.setOutputBufferSize(settings.outputBufferSize());
        http.setInputBufferSize(INPUT_BUFFER_BYTES);
        if (secure)
            http.addCustomizer(new SecureRequestCustomizer(false, false, -1, false));
        return http;
    }

    private static <T extends AbstractHTTP2ServerConnectionFactory> T configure(T h2, ConnectorConfig settings) {
        h2.setMaxConcurrentStreams(settings.maxConcurrentStreams());
        h2.setStreamIdleTimeout(settings.streamIdleTimeout().toMillis());
        h2.setInitialSessionRecvWindow(settings.initialSessionRecvWindow());
        h2.setInitialStreamRecvWindow(settings.initialStreamRecvWindow());
        h2.setRateControlFactory(new WindowRateControl.Factory(settings.maxRateControlEvents()));
        // Jetty's HTTP/2 factories add a customizer that announces an HTTP/3 connector in Alt-Svc. Sluice has none,
        // and the customizer looked for one on every request: 2% of the CPU of an h2c GET (async-profiler).
        HttpConfiguration http = h2.getHttpConfiguration();
        var altSvc = http.getCustomizer(HTTP2ServerConnectionFactory.AltSvcCustomizer.class);
        if (altSvc != null)
            http.removeCustomizer(altSvc);
        return h2;
    }

    private static Duration min(Duration a, Duration b, Duration c) {
        Duration least = a.compareTo(b) <= 0 ? a : b;
        return least.compareTo(c) <= 0 ? least : c;
    }

}

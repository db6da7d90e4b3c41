package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.ConnectorConfig;
import io.sluice.config.ContainerCluster;
import io.sluice.config.HandlerConfig;
import io.sluice.config.ServerConfig;
import io.sluice.config.SslConfig;
import io.sluice.container.HandlerRegistration;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.transport.HttpClientConnectionFactory;
import org.eclipse.jetty.client.transport.HttpClientTransportDynamic;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.ClientConnectionFactoryOverHTTP2;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real-socket Sluice server for tests: a cleartext server ({@value #PLAIN}) and a TLS server ({@value #TLS}) on
 * loopback ports chosen by the OS, with certificates from a {@link TestPki}, plus Jetty clients for each
 * {@link Transport}. Reusable from other modules through http-server's test jar.
 */
public final class ServerFixture implements AutoCloseable {

    public static final String PLAIN = "plain";
    public static final String TLS = "tls";

    private final TestPki pki;
    private final SluiceServer server;
    private final List<HttpClient> clients = new ArrayList<>();

    private ServerFixture(TestPki pki, SluiceServer server) {
        this.pki = pki;
        this.server = server;
    }

    /** Two servers, cleartext and TLS (client authentication off), with the given user handlers and access log. */
    public static ContainerCluster cluster(TestPki pki, List<HandlerConfig> handlers, AccessLogConfig accessLog) {
        return cluster(pki.sslConfig(SslConfig.ClientAuthentication.DISABLED), handlers, accessLog);
    }

    public static ContainerCluster cluster(SslConfig ssl, List<HandlerConfig> handlers, AccessLogConfig accessLog) {
        return new ContainerCluster("default",
                                    List.of(ServerConfig.cleartext(PLAIN, 0),
                                            new ServerConfig(TLS, 0, Optional.of(ssl), ConnectorConfig.defaults())),
                                    Optional.empty(), handlers, accessLog, Duration.ofSeconds(10));
    }

    /** Starts the default cluster with an {@link EchoHandler} on {@value EchoHandler#BINDING}. */
    public static ServerFixture start(TestPki pki) {
        return start(pki, cluster(pki, List.of(), AccessLogConfig.disabled()),
                     HandlerRegistration.of("test", new EchoHandler(), EchoHandler.BINDING));
    }

    /** Starts {@code cluster} on loopback with the extra handlers mounted. */
    public static ServerFixture start(TestPki pki, ContainerCluster cluster, HandlerRegistration... handlers) {
        SluiceServer.Builder builder = SluiceServer.builder(cluster).host("127.0.0.1");
        for (HandlerRegistration handler : handlers)
            builder.handler(handler);
        SluiceServer server = builder.build();
        server.start();
        return new ServerFixture(pki, server);
    }

    /** A fixture around {@code server}, already started, whose TLS clients trust {@code pki}'s CA. */
    public static ServerFixture of(TestPki pki, SluiceServer server) {
        return new ServerFixture(pki, server);
    }

    public SluiceServer server() {
        return server;
    }

    /** The URI of {@code path} on the server that {@code transport} uses. */
    public URI uri(Transport transport, String path) {
        return server.uri(transport.tls() ? TLS : PLAIN).resolve(path);
    }

    /**
     * A request to {@code path} from a client speaking {@code transport}. For {@link Transport#H2C_UPGRADE} the request
     * carries {@code Upgrade: h2c}, so the first request on a connection upgrades it.
     */
    public Request request(Transport transport, String path) {
        Request request = client(transport).newRequest(uri(transport, path)).timeout(30, TimeUnit.SECONDS);
        if (transport == Transport.H2C_UPGRADE)
            request.headers(headers -> headers.put(HttpHeader.UPGRADE, "h2c")
                                              .put(HttpHeader.HTTP2_SETTINGS, "")
                                              .put(HttpHeader.CONNECTION, "Upgrade, HTTP2-Settings"));
        return request;
    }

    /** A started client for {@code transport}, trusting the test CA; closed with the fixture. */
    public HttpClient client(Transport transport) {
        return client(transport, pki.anonymousClientContext());
    }

    /** A started client for {@code transport} with the given TLS context; closed with the fixture. */
    public HttpClient client(Transport transport, SSLContext tls) {
        var connector = new ClientConnector();
        var sslContextFactory = new SslContextFactory.Client();
        sslContextFactory.setSslContext(tls);
        connector.setSslContextFactory(sslContextFactory);
        HttpClient client;
        switch (transport) {
            case H1: case H1_TLS:
                // Over TLS this client offers no ALPN; TlsPolicyTest covers ALPN offering only http/1.1.
                client = new HttpClient(new HttpClientTransportOverHTTP(connector));
                break;
            case H2C_PRIOR_KNOWLEDGE: case H2_TLS:
                client = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client(connector)));
                break;
            case H2C_UPGRADE:
                client = new HttpClient(new HttpClientTransportDynamic(connector, HttpClientConnectionFactory.HTTP11,
                                                                       new ClientConnectionFactoryOverHTTP2.HTTP2(new HTTP2Client(connector))));
                break;
            default:
                throw new IllegalArgumentException("Unknown transport " + transport);
        }
        try {
            client.start();
        }
        catch (Exception e) {
            throw new IllegalStateException("Starting the client failed", e);
        }
        clients.add(client);
        return client;
    }

    @Override
    public void close() {
        for (HttpClient client : clients) {
            try {
                client.stop();
            }
            catch (Exception e) {
                throw new IllegalStateException("Stopping a client failed", e);
            }
        }
        if (server.health().status() != io.sluice.container.ServiceHealth.Status.DOWN)
            server.stop();
    }

}

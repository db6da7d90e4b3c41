package io.sluice.feed;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.MultiplexConnectionPool;
import org.eclipse.jetty.client.WWWAuthenticationProtocolHandler;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds Jetty HTTP/2-only clients from the builder's settings: h2c with prior knowledge for {@code http://}, h2 over
 * TLS with ALPN for {@code https://}. All clients of one owner share a thread pool and a scheduler.
 */
final class HttpClients implements AutoCloseable {

    static final String USER_AGENT = "sluice-feed-client/" + version();

    private final FeedClientBuilder settings;
    private final SSLContext sslContext;
    private final QueuedThreadPool threads;
    private final ScheduledExecutorScheduler scheduler;
    private final List<HttpClient> clients = new ArrayList<>();
    private final List<HTTP2Client> http2Clients = new ArrayList<>();

    HttpClients(FeedClientBuilder settings, int clientCount) {
        this.settings = settings;
        this.sslContext = sslContext(settings);
        int cpus = Runtime.getRuntime().availableProcessors();
        this.threads = new QueuedThreadPool(Math.max(Math.min(cpus, 64), 8) + clientCount, 2);
        this.threads.setName("sluice-feed");
        this.threads.setDaemon(true);
        this.scheduler = new ScheduledExecutorScheduler("sluice-feed-scheduler", true);
        try {
            threads.start();
            scheduler.start();
        }
        catch (Exception e) {
            throw new FeedException(null, "Failed starting the HTTP client threads", e);
        }
    }

    /**
     * An HTTP/2 client, not started, for sessions opened with {@code connect}: huge receive windows (TCP does the
     * flow control), no HPACK dynamic table for requests (every path is new: indexing them only churns the table).
     */
    HTTP2Client newHttp2Client(boolean tls, int selectors) {
        ClientConnector connector = new ClientConnector();
        connector.setExecutor(threads);
        connector.setScheduler(scheduler);
        connector.setSelectors(selectors);
        connector.setIdleTimeout(Duration.ofMinutes(15));
        connector.setConnectTimeout(Duration.ofSeconds(30));
        if (tls) connector.setSslContextFactory(sslContextFactory());
        HTTP2Client http2 = new HTTP2Client(connector);
        http2.setInitialSessionRecvWindow(Integer.MAX_VALUE);
        http2.setInitialStreamRecvWindow(Integer.MAX_VALUE);
        http2.setMaxEncoderTableCapacity(0);
        return http2;
    }

    /** Started {@code HTTP2Client}s to close with this. */
    synchronized void manage(HTTP2Client http2) {
        try {
            http2.start();
        }
        catch (Exception e) {
            throw new FeedException(null, "Failed starting the HTTP/2 client", e);
        }
        http2Clients.add(http2);
    }

    /** A started client holding at most one connection with at most {@code maxStreams} concurrent streams. */
    synchronized HttpClient newClient(boolean tls, int maxStreams) {
        HTTP2Client http2 = newHttp2Client(tls, 1);
        HttpClientTransportOverHTTP2 transport = new HttpClientTransportOverHTTP2(http2);
        transport.setConnectionPoolFactory(destination -> new MultiplexConnectionPool(destination, 1, maxStreams));
        HttpClient client = new HttpClient(transport);
        client.setExecutor(threads);
        client.setScheduler(scheduler);
        client.setMaxConnectionsPerDestination(1);
        client.setMaxRequestsQueuedPerDestination(1 << 20);
        client.setFollowRedirects(false);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, USER_AGENT));
        client.setIdleTimeout(Duration.ofMinutes(15).toMillis());
        try {
            client.start();
        }
        catch (Exception e) {
            throw new FeedException(null, "Failed starting the HTTP client", e);
        }
        client.getProtocolHandlers().remove(WWWAuthenticationProtocolHandler.NAME);
        clients.add(client);
        return client;
    }

    private SslContextFactory.Client sslContextFactory() {
        SslContextFactory.Client factory = new SslContextFactory.Client();
        if (sslContext != null) factory.setSslContext(sslContext);
        if ( ! settings.hostnameVerification) factory.setEndpointIdentificationAlgorithm(null);
        return factory;
    }

    private static SSLContext sslContext(FeedClientBuilder settings) {
        if (settings.sslContext != null) return settings.sslContext;
        if (settings.certificate == null && settings.caCertificates == null) return null;
        try {
            KeyManagerFactory keys = null;
            if (settings.certificate != null) {
                List<X509Certificate> chain = Pem.certificates(settings.certificate);
                PrivateKey key = Pem.privateKey(settings.privateKey);
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                store.setKeyEntry("client", key, new char[0], chain.toArray(new X509Certificate[0]));
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, new char[0]);
            }
            TrustManagerFactory trust = null;
            if (settings.caCertificates != null) {
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                int i = 0;
                for (X509Certificate certificate : Pem.certificates(settings.caCertificates))
                    store.setCertificateEntry("ca-" + i++, certificate);
                trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init(store);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust == null ? null : trust.getTrustManagers(), null);
            return context;
        }
        catch (GeneralSecurityException | java.io.IOException e) {
            throw new FeedException(null, "Failed setting up TLS: " + e.getMessage(), e);
        }
    }

    /** {@code scheme://host:port} of an endpoint, with the default port made explicit. */
    static String base(java.net.URI endpoint) {
        int port = endpoint.getPort() != -1 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
        String host = endpoint.getHost().contains(":") && ! endpoint.getHost().startsWith("[") ? "[" + endpoint.getHost() + "]" : endpoint.getHost();
        return endpoint.getScheme() + "://" + host + ":" + port;
    }

    private static String version() {
        String version = HttpClients.class.getPackage().getImplementationVersion();
        return version == null ? "0.1.0" : version;
    }

    @Override public synchronized void close() {
        for (HTTP2Client client : http2Clients) {
            try {
                client.stop();
            }
            catch (Exception e) {
                // closing anyway
            }
        }
        for (HttpClient client : clients) {
            try {
                client.stop();
            }
            catch (Exception e) {
                // closing anyway
            }
        }
        try {
            scheduler.stop();
            threads.stop();
        }
        catch (Exception e) {
            // closing anyway
        }
    }

}

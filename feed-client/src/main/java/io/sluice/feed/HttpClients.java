package io.sluice.feed;

import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.MultiplexConnectionPool;
import org.eclipse.jetty.client.WWWAuthenticationProtocolHandler;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.ClientConnectionFactory;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.ssl.SslClientConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509KeyManager;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Builds Jetty HTTP/2-only clients from the builder's settings: h2c with prior knowledge for {@code http://}, h2 over
 * TLS with ALPN for {@code https://}. All clients of one owner share a thread pool and a scheduler.
 */
final class HttpClients implements AutoCloseable {

    static final String USER_AGENT = "sluice-feed-client/" + version();

    private final FeedClientBuilder settings;
    private final SSLContext sslContext;
    private final ClientCertificateProbe probe; // null with a complete SSLContext from the caller
    private final QueuedThreadPool threads;
    private final ScheduledExecutorScheduler scheduler;
    private final List<HttpClient> clients = new ArrayList<>();
    private final List<HTTP2Client> http2Clients = new ArrayList<>();
    private volatile boolean chaChaOnly; // see FeedClientBuilder.setPreferChaCha20
    private ArrayByteBufferPool streamBuffers; // of newClient's clients, made on first use

    HttpClients(FeedClientBuilder settings, int clientCount) {
        this.settings = settings;
        this.probe = settings.sslContext == null && usesTls(settings) ? new ClientCertificateProbe(keyManager(settings)) : null;
        this.sslContext = settings.sslContext != null ? settings.sslContext : probe == null ? null : sslContext(settings, probe);
        this.chaChaOnly = settings.preferChaCha20;
        int cpus = Runtime.getRuntime().availableProcessors();
        this.threads = new QueuedThreadPool(Math.max(Math.min(cpus, 64), 8) + clientCount, 2);
        this.threads.setName("sluice-feed");
        this.threads.setDaemon(true);
        // No reserved threads: a selector thread then runs what it reads (responses, completions, the next sends) itself
        // instead of handing its selector to a reserved thread at every read. With them, a 100,000-put TLS feed made
        // ~0.3 such hand-offs per put and cost ~15% more client CPU (0214a77, 2026-11-26).
        this.threads.setReservedThreads(0);
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
        return newHttp2Client(tls, selectors, true);
    }

    /** {@code feeding}: whether the sessions carry feed operations, which may prefer ChaCha20-Poly1305 over TLS. */
    private HTTP2Client newHttp2Client(boolean tls, int selectors, boolean feeding) {
        ClientConnector connector = tls ? new TlsConnector() : new CleartextConnector();
        connector.setExecutor(threads);
        connector.setScheduler(scheduler);
        connector.setSelectors(selectors);
        connector.setIdleTimeout(Duration.ofMinutes(15));
        connector.setConnectTimeout(Duration.ofSeconds(30));
        if (tls) connector.setSslContextFactory(sslContextFactory(feeding));
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

    /**
     * A started client for long streamed responses, holding at most one connection with at most {@code maxStreams}
     * concurrent streams. Unlike {@link #newHttp2Client}'s, its receive windows are bounded: a response is buffered
     * only up to {@code streamWindow} bytes (and all of a connection's to {@code sessionWindow}) ahead of its reader,
     * so a slow reader holds the server back instead of filling memory. DATA frames up to 1 MiB, read in up to
     * 64 KiB at a time, make a tenth of the frames and reads of HTTP/2's default 16 KiB and Jetty's 8 KiB.
     */
    synchronized HttpClient newClient(boolean tls, int maxStreams, int streamWindow, int sessionWindow) {
        HTTP2Client http2 = newHttp2Client(tls, 1, false);
        http2.setInitialStreamRecvWindow(streamWindow);
        http2.setInitialSessionRecvWindow(sessionWindow);
        http2.setMaxFrameSize(1 << 20);
        http2.getClientConnector().setByteBufferPool(streamBuffers());
        HttpClientTransportOverHTTP2 transport = new HttpClientTransportOverHTTP2(http2);
        transport.setConnectionPoolFactory(destination -> new MultiplexConnectionPool(destination, 1, maxStreams));
        HttpClient client = new HttpClient(transport);
        client.setExecutor(threads);
        client.setScheduler(scheduler);
        client.setByteBufferPool(streamBuffers());
        client.setMaxConnectionsPerDestination(1);
        client.setMaxRequestsQueuedPerDestination(1 << 20);
        client.setFollowRedirects(false);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, USER_AGENT));
        client.setIdleTimeout(Duration.ofMinutes(15).toMillis());
        // The transport gives its HTTP/2 client these when it starts, over what was set on that client: the input buffer
        // was Jetty's 16 KiB response buffer until this was set here, so a 1 GB visit took ~65,000 reads, not ~16,000.
        client.setResponseBufferSize(STREAM_INPUT_BUFFER_BYTES);
        client.setConnectTimeout(Duration.ofSeconds(30).toMillis());
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

    /**
     * The buffers of all {@link #newClient} clients: one pool that keeps every buffer released to it, up to
     * {@link #STREAM_BUFFER_BYTES}. A slow reader of a streamed response holds the network buffers its unread data
     * arrived in (up to the receive windows' worth), and a client's own pool (Jetty's default: as many buffers per
     * size as the client has threads) dropped the rest when they came back; dropped direct buffers are freed only
     * by a garbage collection, which a visit that allocates little on the heap hardly ever runs. A visit of 1 GB to a
     * slow pipe so grew to 880 MB resident, and took 2.4 s of system time (0.7 s pooled), faulting in fresh buffers.
     */
    synchronized ByteBufferPool streamBuffers() {
        if (streamBuffers == null)
            streamBuffers = new ArrayByteBufferPool(0, -1, -1, Integer.MAX_VALUE, STREAM_BUFFER_BYTES / 4, STREAM_BUFFER_BYTES);
        return streamBuffers;
    }

    /** How much a streamed client reads from its connection at a time. */
    static final int STREAM_INPUT_BUFFER_BYTES = 64 << 10;

    /** The most memory {@link #streamBuffers} keeps; more than the receive windows of the streamed clients hold. */
    static final long STREAM_BUFFER_BYTES = 128L << 20;

    private SslContextFactory.Client sslContextFactory(boolean feeding) {
        SslContextFactory.Client factory = ! feeding ? new SslContextFactory.Client() : new SslContextFactory.Client() {
            @Override public void customize(SSLEngine engine) {
                super.customize(engine);
                if (chaChaOnly) offerChaChaOnly(engine);
            }
        };
        if (sslContext != null) factory.setSslContext(sslContext);
        if ( ! settings.hostnameVerification) factory.setEndpointIdentificationAlgorithm(null);
        return factory;
    }

    private static boolean usesTls(FeedClientBuilder settings) {
        return settings.endpoints.stream().anyMatch(endpoint -> "https".equals(endpoint.getScheme()))
               || settings.certificate != null || settings.caCertificates != null;
    }

    /** The key manager of the configured client certificate, or null if none is. */
    private static X509KeyManager keyManager(FeedClientBuilder settings) {
        if (settings.certificate == null) return null;
        try {
            List<X509Certificate> chain = Pem.certificates(settings.certificate);
            PrivateKey key = Pem.privateKey(settings.privateKey);
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("client", key, new char[0], chain.toArray(new X509Certificate[0]));
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, new char[0]);
            for (KeyManager manager : keys.getKeyManagers())
                if (manager instanceof X509KeyManager) return (X509KeyManager) manager;
            throw new GeneralSecurityException("No X.509 key manager for the client certificate");
        }
        catch (GeneralSecurityException | java.io.IOException e) {
            throw new FeedException(null, "Failed setting up TLS: " + e.getMessage(), e);
        }
    }

    private static SSLContext sslContext(FeedClientBuilder settings, ClientCertificateProbe probe) {
        try {
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
            context.init(new KeyManager[] { probe }, trust == null ? null : trust.getTrustManagers(), null);
            return context;
        }
        catch (GeneralSecurityException | java.io.IOException e) {
            throw new FeedException(null, "Failed setting up TLS: " + e.getMessage(), e);
        }
    }

    /** Whether new TLS connections offer only ChaCha20-Poly1305 suites. */
    boolean offersChaChaOnly() { return chaChaOnly; }

    /**
     * Whether {@code failure}, of a connection that offered only ChaCha20-Poly1305 suites, was a failed handshake; if so,
     * later connections offer the JVM's default suites, and the caller should connect again at once. A handshake that
     * failed for another reason (a certificate) then fails again, and is reported as such.
     */
    boolean chaChaRefused(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLHandshakeException) {
                chaChaOnly = false;
                return true;
            }
        }
        return false;
    }

    /** Leaves only the ChaCha20-Poly1305 suites (and the renegotiation signal) enabled, when any is. */
    static void offerChaChaOnly(SSLEngine engine) {
        String[] enabled = engine.getEnabledCipherSuites();
        String[] chaCha = Arrays.stream(enabled)
                                .filter(suite -> suite.contains("_CHACHA20_POLY1305_") || suite.equals("TLS_EMPTY_RENEGOTIATION_INFO_SCSV"))
                                .toArray(String[]::new);
        if (Arrays.stream(chaCha).anyMatch(suite -> suite.contains("_CHACHA20_"))) engine.setEnabledCipherSuites(chaCha);
    }

    /**
     * Why TLS connections may be refused: a server asked for a client certificate that this client could not present.
     * Under TLS 1.3 such a refusal reaches the client only as a closed connection.
     */
    Optional<String> clientCertificateProblem() {
        return probe == null ? Optional.empty() : probe.problem();
    }

    /** A connector for cleartext only, which does not load the JVM's TLS machinery at start-up for nothing. */
    private static final class CleartextConnector extends ClientConnector {
        @Override protected SslContextFactory.Client newSslContextFactory() { return null; }
    }

    /**
     * TLS with heap buffers for the encrypted bytes. Jetty's default, direct buffers, makes the JDK's ChaCha20-Poly1305
     * (plain Java under C1) copy every record into a new array and back: ~2.3 KB of garbage per put in a JFR
     * allocation profile of a TLS feed, a seventh of all. With heap buffers the cipher works in place and the
     * socket's copy to a direct buffer reuses one per thread.
     */
    private static final class TlsConnector extends ClientConnector {
        @Override public ClientConnectionFactory newSslClientConnectionFactory(SslContextFactory.Client ssl, ClientConnectionFactory factory) {
            ClientConnectionFactory created = super.newSslClientConnectionFactory(ssl, factory);
            if (created instanceof SslClientConnectionFactory tlsFactory) {
                tlsFactory.setDirectBuffersForEncryption(false);
                tlsFactory.setDirectBuffersForDecryption(false);
            }
            return created;
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

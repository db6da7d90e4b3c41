package io.sluice.feed;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FeedClientBuilder#setPreferChaCha20}: against servers that pick cipher suites by their own order (Jetty's
 * default), one with the JDK's suites, where AES-GCM comes first, and one that has only AES-GCM suites.
 */
class ChaCha20PreferenceTest {

    private static final String CHACHA = "TLS_CHACHA20_POLY1305_SHA256";

    @TempDir static Path tmp;
    private static Server server;
    private static ServerConnector defaultSuites, aesOnly;
    private static Path caPem;
    /** The cipher suite of each request's connection, as the server saw it. */
    private static final List<String> suites = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        Path store = TestCertificates.keystore(tmp, "server", "CN=localhost", "SAN=dns:localhost");
        caPem = TestCertificates.pemCertificate(store, "server", tmp.resolve("ca.pem"));
        server = new Server();
        defaultSuites = connector(store);
        aesOnly = connector(store, "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
                            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384");
        server.setHandler(new Handler.Abstract() {
            @Override public boolean handle(Request request, Response response, Callback callback) {
                suites.add(((EndPoint.SslSessionData) request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE)).cipherSuite());
                String body = request.getMethod().equals("GET") ? "{\"documents\":[],\"documentCount\":0}" : "{}";
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
    }

    /** An h2 connector with the key pair of {@code store}, and only {@code suites} if any are given. */
    private static ServerConnector connector(Path store, String... suites) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(store.toString());
        ssl.setKeyStorePassword("secret");
        ssl.setKeyStoreType("PKCS12");
        if (suites.length > 0) ssl.setIncludeCipherSuites(suites);
        HttpConfiguration config = new HttpConfiguration();
        config.addCustomizer(new SecureRequestCustomizer(false));
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2");
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                                                        new HTTP2ServerConnectionFactory(config));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        return connector;
    }

    @AfterAll
    static void stop() throws Exception { server.stop(); }

    private static FeedClientBuilder builder(ServerConnector connector, boolean preferChaCha20) {
        return FeedClientBuilder.create(URI.create("https://localhost:" + connector.getLocalPort() + "/"))
                                .setCaCertificatesFile(caPem)
                                .setConnectionsPerEndpoint(1)
                                .setPreferChaCha20(preferChaCha20)
                                .setRetryStrategy(new RetryStrategy() { @Override public int retries() { return 0; } });
    }

    /** The cipher suites of the requests of {@code count} successful puts, one after the other, through one client. */
    private static List<String> put(FeedClientBuilder builder, int count) throws Exception {
        suites.clear();
        try (FeedClient client = builder.build()) {
            for (int i = 0; i < count; i++) {
                Result result = client.put(DocumentId.of("id:ns:music::" + i), "{\"fields\":{}}",
                                           OperationParameters.empty().timeout(Duration.ofSeconds(20))).get();
                assertEquals(Result.Type.SUCCESS, result.type());
            }
        }
        return List.copyOf(suites);
    }

    @Test
    void preferred_negotiatesChaCha20_withAServerThatOrdersAesFirst() throws Exception {
        List<String> negotiated = put(builder(defaultSuites, true), 2);
        assertTrue(negotiated.size() >= 2 && negotiated.stream().allMatch(CHACHA::equals), negotiated.toString());
    }

    @Test
    void notPreferred_theServerPicksAesGcm() throws Exception {
        List<String> negotiated = put(builder(defaultSuites, false), 1);
        assertTrue(negotiated.get(0).matches("TLS_AES_(128|256)_GCM_SHA(256|384)"), negotiated.toString());
    }

    @Test
    void preferred_withAServerWithoutChaCha20_fallsBackWithoutFailingAnOperation() throws Exception {
        List<String> negotiated = put(builder(aesOnly, true), 3); // with no retries allowed
        assertTrue(negotiated.size() >= 3, negotiated.toString());
        for (String suite : negotiated) assertTrue(suite.startsWith("TLS_AES_"), negotiated.toString());
    }

    @Test
    void preferred_aCertificateProblemIsStillReported() {
        FeedClientBuilder wrongHost = FeedClientBuilder.create(URI.create("https://127.0.0.1:" + defaultSuites.getLocalPort() + "/"))
                                                       .setCaCertificatesFile(caPem)
                                                       .setConnectionsPerEndpoint(1)
                                                       .setPreferChaCha20(true)
                                                       .setRetryStrategy(new RetryStrategy() { @Override public int retries() { return 0; } });
        FeedException e = assertThrows(FeedException.class, () -> put(wrongHost, 1));
        assertTrue(String.valueOf(e.getMessage()).toLowerCase().contains("subject alternative"), e.getMessage());
    }

    @Test
    void visits_offerTheDefaultSuites() throws IOException {
        suites.clear();
        try (VisitClient client = builder(aesOnly, true).buildVisitClient()) {
            client.visit(VisitParameters.of("music"), 0, Optional.empty(), new VisitSink() {
                @Override public void document(byte[] json, int offset, int length) { }
                @Override public void continuation(Optional<String> token, double percentFinished) { }
            });
        }
        assertEquals(1, suites.size(), suites.toString()); // at once: no handshake refused, no retry
        assertTrue(suites.get(0).startsWith("TLS_AES_"), suites.toString());
    }

}

package io.sluice.feed;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
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

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** h2 over TLS with ALPN and a client certificate, against a server whose certificate names only 'localhost'. */
class TlsInteropTest {

    @TempDir static Path tmp;
    private static Server server;
    private static final List<String> protocols = new CopyOnWriteArrayList<>();
    private static Path caPem, certPem, keyPem;

    @BeforeAll
    static void start() throws Exception {
        Path serverStore = TestCertificates.keystore(tmp, "server", "CN=localhost", "SAN=dns:localhost");
        Path clientStore = TestCertificates.keystore(tmp, "client", "CN=feeder", null);
        caPem = TestCertificates.pemCertificate(serverStore, "server", tmp.resolve("ca.pem"));
        certPem = TestCertificates.pemCertificate(clientStore, "client", tmp.resolve("client.pem"));
        keyPem = TestCertificates.pemKey(clientStore, "client", tmp.resolve("client.key"));

        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(serverStore.toString());
        ssl.setKeyStorePassword("secret");
        ssl.setKeyStoreType("PKCS12");
        ssl.setTrustStorePath(clientStore.toString());
        ssl.setTrustStorePassword("secret");
        ssl.setTrustStoreType("PKCS12");
        ssl.setNeedClientAuth(true);
        HttpConfiguration config = new HttpConfiguration();
        config.addCustomizer(new SecureRequestCustomizer(false));
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        server = new Server();
        ServerConnector connector = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                                                        new HTTP2ServerConnectionFactory(config), new HttpConnectionFactory(config));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override public boolean handle(Request request, Response response, Callback callback) {
                protocols.add(request.getConnectionMetaData().getProtocol());
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.write(true, ByteBuffer.wrap("{}".getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
    }

    @AfterAll
    static void stop() throws Exception { server.stop(); }

    private static URI uri(String host) {
        return URI.create("https://" + host + ":" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + "/");
    }

    private static Result put(FeedClientBuilder builder) throws Exception {
        RetryStrategy noRetries = new RetryStrategy() {
            @Override public int retries() { return 0; }
        };
        try (FeedClient client = builder.setConnectionsPerEndpoint(1).setRetryStrategy(noRetries).build()) {
            return client.put(DocumentId.of("id:ns:music::a"), "{\"fields\":{}}",
                              OperationParameters.empty().timeout(java.time.Duration.ofSeconds(20))).get();
        }
    }

    @Test
    void clientCertificateAndCa_negotiatesH2WithAlpn() throws Exception {
        Result result = put(FeedClientBuilder.create(uri("localhost")).setCaCertificatesFile(caPem).setCertificate(certPem, keyPem));
        assertEquals(Result.Type.SUCCESS, result.type());
        assertEquals("HTTP/2.0", protocols.get(protocols.size() - 1));
    }

    @Test
    void hostnameMismatch_failsHandshake() {
        assertThrows(FeedException.class,
                     () -> put(FeedClientBuilder.create(uri("127.0.0.1")).setCaCertificatesFile(caPem).setCertificate(certPem, keyPem)));
    }

    @Test
    void hostnameMismatch_withVerificationDisabled_succeeds() throws Exception {
        Result result = put(FeedClientBuilder.create(uri("127.0.0.1")).setCaCertificatesFile(caPem).setCertificate(certPem, keyPem)
                                             .setHostnameVerification(false));
        assertEquals(Result.Type.SUCCESS, result.type());
    }

    @Test
    void missingClientCertificate_failsHandshake() {
        assertThrows(FeedException.class, () -> put(FeedClientBuilder.create(uri("localhost")).setCaCertificatesFile(caPem)));
    }

}

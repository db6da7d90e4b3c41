package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.ClientConfig;
import io.sluice.config.ConfigException;
import io.sluice.config.ConnectorConfig;
import io.sluice.config.ContainerCluster;
import io.sluice.config.DocumentApiConfig;
import io.sluice.config.ServerConfig;
import io.sluice.config.SslConfig;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.JsonTree;
import io.sluice.container.document.DocumentV1ApiHandler;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code <clients>}: tokens and client certificates, read and write permissions, on /document/v1 over real sockets. */
class AccessControlTest {

    @TempDir
    static Path certificates;

    static TestPki pki;

    private static final String DOC = "/document/v1/ns/music/docid/a";
    private static final Map<String, String> ENVIRONMENT = Map.of("SLUICE_TOKEN_READER_TOKEN", "r-secret",
                                                                  "SLUICE_TOKEN_WRITER_TOKEN", "w-secret");

    private ServerFixture fixture;

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(certificates);
    }

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private static ContainerCluster cluster(SslConfig.ClientAuthentication authentication, List<ClientConfig> clients) {
        return new ContainerCluster("default",
                                    List.of(ServerConfig.cleartext(ServerFixture.PLAIN, 0),
                                            new ServerConfig(ServerFixture.TLS, 0, Optional.of(pki.sslConfig(authentication)),
                                                             ConnectorConfig.defaults())),
                                    Optional.empty(), List.of(), AccessLogConfig.disabled(), Duration.ofSeconds(10), clients);
    }

    private static List<ClientConfig> clients() {
        return List.of(new ClientConfig("reader", Set.of(ClientConfig.Permission.READ), List.of(), List.of("reader-token")),
                       new ClientConfig("writer", Set.of(ClientConfig.Permission.READ, ClientConfig.Permission.WRITE),
                                        List.of(), List.of("writer-token")),
                       new ClientConfig("mtls", Set.of(ClientConfig.Permission.READ, ClientConfig.Permission.WRITE),
                                        List.of(pki.clientCertificateFile()), List.of()));
    }

    private static SluiceServer build(ContainerCluster cluster) {
        DocumentV1ApiHandler handler = DocumentServers.memoryHandler(DocumentApiConfig.defaults());
        return SluiceServer.builder(cluster).host("127.0.0.1").environment(ENVIRONMENT::get)
                           .handler(HandlerRegistration.of("test", handler, DocumentV1ApiHandler.BINDING, "http://*/document/v1"))
                           .build();
    }

    private void start() {
        SluiceServer server = build(cluster(SslConfig.ClientAuthentication.WANT, clients()));
        server.start();
        fixture = ServerFixture.of(pki, server);
    }

    private ContentResponse send(Transport transport, HttpMethod method, String path, String token) throws Exception {
        var request = fixture.request(transport, path).method(method);
        if (token != null)
            request.headers(headers -> headers.put("Authorization", "Bearer " + token));
        if (method == HttpMethod.POST)
            request.body(new StringRequestContent("application/json", "{\"fields\":{\"artist\":\"x\"}}"));
        return request.send();
    }

    @Test
    void withoutCredentials_documentApiIs401_andStatusEndpointsStayOpen() throws Exception {
        start();
        ContentResponse response = send(Transport.H1, HttpMethod.GET, DOC, null);
        assertEquals(401, response.getStatus());
        assertEquals("Bearer", response.getHeaders().get("WWW-Authenticate"));
        assertTrue(((String) JsonTree.object(response.getContentAsString()).get("message")).startsWith("Unauthenticated"));
        assertEquals(401, send(Transport.H2C_PRIOR_KNOWLEDGE, HttpMethod.POST, DOC, null).getStatus());
        assertEquals(401, send(Transport.H1, HttpMethod.GET, DOC, "not-a-token").getStatus());
        assertEquals(200, send(Transport.H1, HttpMethod.GET, "/state/v1/health", null).getStatus());
    }

    @Test
    void tokens_grantTheirClientsPermissions() throws Exception {
        start();
        assertEquals(404, send(Transport.H1, HttpMethod.GET, DOC, "r-secret").getStatus()); // allowed; nothing stored yet
        ContentResponse refused = send(Transport.H2C_PRIOR_KNOWLEDGE, HttpMethod.POST, DOC, "r-secret");
        assertEquals(403, refused.getStatus());
        assertEquals("Client 'reader' does not have the write permission needed for POST",
                     JsonTree.object(refused.getContentAsString()).get("message"));
        assertEquals(404, send(Transport.H1, HttpMethod.GET, DOC, "r-secret").getStatus()); // the refused put wrote nothing
        assertEquals(200, send(Transport.H2C_PRIOR_KNOWLEDGE, HttpMethod.POST, DOC, "w-secret").getStatus());
        assertEquals(200, send(Transport.H1, HttpMethod.GET, DOC, "r-secret").getStatus());
    }

    @Test
    void clientCertificate_identifiesItsClientOverTls() throws Exception {
        start();
        var withCertificate = fixture.client(Transport.H2_TLS, pki.clientContext());
        var response = withCertificate.newRequest(fixture.uri(Transport.H2_TLS, DOC)).method(HttpMethod.POST)
                                      .body(new StringRequestContent("application/json", "{\"fields\":{\"artist\":\"y\"}}"))
                                      .timeout(30, TimeUnit.SECONDS).send();
        assertEquals(200, response.getStatus());
        assertEquals(401, send(Transport.H2_TLS, HttpMethod.GET, DOC, null).getStatus()); // TLS without a certificate
    }

    @Test
    void tokenWithoutValue_orCertificatesWithoutClientAuthentication_stopStartUp() {
        ConfigException noValue = assertThrows(ConfigException.class, () -> build(cluster(
                SslConfig.ClientAuthentication.WANT,
                List.of(new ClientConfig("x", Set.of(ClientConfig.Permission.READ), List.of(), List.of("missing.token"))))));
        assertEquals("Token 'missing.token' of <client id='x'> has no value: set the environment variable "
                     + "SLUICE_TOKEN_MISSING_TOKEN to it", noValue.getMessage());
        ConfigException noTls = assertThrows(ConfigException.class,
                                             () -> build(cluster(SslConfig.ClientAuthentication.DISABLED, clients())));
        assertTrue(noTls.getMessage().contains("has certificate clients, but no <server> has <ssl>"), noTls.getMessage());
    }

    @Test
    void identifiedClient_isNamedToTheDocumentApi_whichSharesVisitsByIt() throws Exception {
        Handler named = new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
                Object client = request.getAttribute(DocumentV1ApiHandler.CLIENT_ATTRIBUTE);
                response.write(true, ByteBuffer.wrap(String.valueOf(client).getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        };
        SluiceServer server = SluiceServer.builder(cluster(SslConfig.ClientAuthentication.WANT, clients()))
                                          .host("127.0.0.1").environment(ENVIRONMENT::get)
                                          .handler(HandlerRegistration.of("test", named, DocumentV1ApiHandler.BINDING,
                                                                          "http://*/document/v1"))
                                          .build();
        server.start();
        fixture = ServerFixture.of(pki, server);
        assertEquals("reader", send(Transport.H1, HttpMethod.GET, DOC, "r-secret").getContentAsString());
        assertEquals("writer", send(Transport.H2C_PRIOR_KNOWLEDGE, HttpMethod.GET, DOC, "w-secret").getContentAsString());
    }

}

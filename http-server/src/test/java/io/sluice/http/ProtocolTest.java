package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.HandlerConfig;
import io.sluice.container.JsonTree;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Every protocol path over real sockets: HTTP/1.1, h2c by prior knowledge and by upgrade, HTTP/1.1 and h2 over TLS. */
class ProtocolTest {

    @TempDir
    static Path certificates;

    static TestPki pki;

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

    private ServerFixture start() {
        return fixture = ServerFixture.start(pki);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void get_negotiatesExpectedProtocol_onBothSides(Transport transport) throws Exception {
        ContentResponse response = start().request(transport, "/echo/x").send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertEquals(transport.protocol(), response.getHeaders().get("X-Protocol"));
        assertEquals(transport.version(), response.getVersion());
        assertEquals(String.valueOf(transport.tls()), response.getHeaders().get("X-Secure"));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void statusHtml_servedOverEveryProtocol(Transport transport) throws Exception {
        ContentResponse response = start().request(transport, "/status.html").send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertEquals("<title>OK</title>\n", response.getContentAsString());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void encodedSlashInPath_reachesHandlerUndecoded(Transport transport) throws Exception {
        ContentResponse response = start().request(transport, "/echo/docid/a%2Fb").send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertEquals("/echo/docid/a%2Fb", response.getHeaders().get("X-Raw-Path"));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void unknownPath_returns404Json(Transport transport) throws Exception {
        ContentResponse response = start().request(transport, "/nothing/here").send();
        assertEquals(HttpStatus.NOT_FOUND_404, response.getStatus());
        assertEquals(Map.of("message", "Nothing is bound to path '/nothing/here'"), JsonTree.parse(response.getContentAsString()));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void customHandlerFromServicesXml_answers(Transport transport) throws Exception {
        var handler = new HandlerConfig("hello", HelloHandler.class.getName(), List.of("http://*/hello/*"));
        fixture = ServerFixture.start(pki, ServerFixture.cluster(pki, List.of(handler), AccessLogConfig.disabled()));
        ContentResponse response = fixture.request(transport, "/hello/world").send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertEquals("hello from /hello/world", response.getContentAsString());
        assertEquals(transport.protocol(), response.getHeaders().get("X-Protocol"));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void vespaHandlerFromServicesXml_answers501Json(Transport transport) throws Exception {
        var handler = new HandlerConfig("search", "com.example.VespaSearchHandler", List.of("http://*/search/*"));
        fixture = ServerFixture.start(pki, ServerFixture.cluster(pki, List.of(handler), AccessLogConfig.disabled()));
        ContentResponse response = fixture.request(transport, "/search/?query=x").send();
        assertEquals(HttpStatus.NOT_IMPLEMENTED_501, response.getStatus());
        assertEquals(Map.of("message", "Handler 'search' (class 'com.example.VespaSearchHandler') is a Vespa request "
                                       + "handler, which Sluice cannot run; see the warning logged at start-up"),
                     JsonTree.parse(response.getContentAsString()));
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H1_TLS", "H2_TLS" })
    void gzipRequestBody_isInflatedBeforeTheHandler(Transport transport) throws Exception {
        byte[] body = "{\"fields\":{\"title\":\"gzip me\"}}".repeat(100).getBytes(StandardCharsets.UTF_8);
        ContentResponse response = start().request(transport, "/echo/put")
                                          .method(HttpMethod.PUT)
                                          .headers(headers -> headers.put(HttpHeader.CONTENT_ENCODING, "gzip"))
                                          .body(new BytesRequestContent("application/json", gzip(body)))
                                          .send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertArrayEquals(body, response.getContent());
        assertEquals("none", response.getHeaders().get("X-Content-Encoding"));
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H2_TLS" })
    void gzipRequestBody_fromAClientThatAcceptsNoEncoding_isInflatedToo(Transport transport) throws Exception {
        byte[] body = "{\"fields\":{\"title\":\"gzip me\"}}".repeat(100).getBytes(StandardCharsets.UTF_8);
        var client = start().client(transport);
        client.getContentDecoderFactories().clear(); // no Accept-Encoding: only the request's Content-Encoding asks
        ContentResponse response = client.newRequest(fixture.uri(transport, "/echo/put"))
                                         .method(HttpMethod.PUT)
                                         .headers(headers -> headers.put(HttpHeader.CONTENT_ENCODING, "gzip"))
                                         .body(new BytesRequestContent("application/json", gzip(body)))
                                         .send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertArrayEquals(body, response.getContent());
        assertEquals("none", response.getHeaders().get("X-Content-Encoding"));
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H2_TLS" })
    void responseBody_isGzippedWhenAccepted(Transport transport) throws Exception {
        byte[] body = "compressible ".repeat(200).getBytes(StandardCharsets.UTF_8);
        var client = start().client(transport);
        client.getContentDecoderFactories().clear();
        ContentResponse response = client.newRequest(fixture.uri(transport, "/echo/gz"))
                                         .method(HttpMethod.POST)
                                         .headers(headers -> headers.put(HttpHeader.ACCEPT_ENCODING, "gzip"))
                                         .body(new BytesRequestContent("text/plain", body))
                                         .send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertEquals("gzip", response.getHeaders().get(HttpHeader.CONTENT_ENCODING));
        assertArrayEquals(body, gunzip(response.getContent()));
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H2_TLS" })
    void responseBody_isPlainButVariesWhenNoEncodingIsAccepted(Transport transport) throws Exception {
        byte[] body = "compressible ".repeat(200).getBytes(StandardCharsets.UTF_8);
        var client = start().client(transport);
        client.getContentDecoderFactories().clear(); // no Accept-Encoding
        ContentResponse response = client.newRequest(fixture.uri(transport, "/echo/plain"))
                                         .method(HttpMethod.POST)
                                         .body(new BytesRequestContent("text/plain", body))
                                         .send();
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertNull(response.getHeaders().get(HttpHeader.CONTENT_ENCODING));
        assertEquals("Accept-Encoding", response.getHeaders().get(HttpHeader.VARY));
        assertArrayEquals(body, response.getContent());
    }

    static byte[] gzip(byte[] data) throws IOException {
        var out = new ByteArrayOutputStream();
        try (var gzip = new GZIPOutputStream(out)) {
            gzip.write(data);
        }
        return out.toByteArray();
    }

    static byte[] gunzip(byte[] data) throws IOException {
        try (var in = new GZIPInputStream(new java.io.ByteArrayInputStream(data))) {
            return in.readAllBytes();
        }
    }

}

package io.sluice.http;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonTree;
import io.sluice.container.document.DocumentV1ApiHandler;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** /document/v1 single-document operations over real sockets: h1, h2c, h1+TLS and h2+TLS. */
class DocumentApiProtocolTest {

    private static final String DOC = "/document/v1/ns/music/docid/a%2Fb";

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

    private ServerFixture start(DocumentApiConfig config) {
        return fixture = DocumentServers.start(pki, DocumentServers.memoryHandler(config));
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H1_TLS", "H2_TLS" })
    void putGetRemove_roundTrip(Transport transport) throws Exception {
        start(DocumentApiConfig.defaults());
        ContentResponse put = fixture.request(transport, DOC + "?timeout=10s").method(HttpMethod.POST)
                                     .body(new StringRequestContent("application/json", "{\"fields\":{\"artist\":\"x\"}}")).send();
        assertEquals(200, put.getStatus(), put.getContentAsString());
        assertEquals(Map.of("pathId", DOC, "id", "id:ns:music::a/b"), JsonTree.parse(put.getContentAsString()));
        ContentResponse get = fixture.request(transport, DOC).send();
        assertEquals(Map.of("pathId", DOC, "id", "id:ns:music::a/b", "fields", Map.of("artist", "x")),
                     JsonTree.parse(get.getContentAsString()));
        assertEquals(200, fixture.request(transport, DOC).method(HttpMethod.DELETE).send().getStatus());
        assertEquals(404, fixture.request(transport, DOC).send().getStatus());
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H2_TLS" })
    void handshake_returns200(Transport transport) throws Exception {
        start(DocumentApiConfig.defaults());
        ContentResponse response = fixture.request(transport, "/document/v1/feeder/handshake/docid/dummy?dryRun=true&timeout=30000ms")
                                          .method(HttpMethod.POST).send();
        assertEquals(200, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/feeder/handshake/docid/dummy", "id", "id:feeder:handshake::dummy"),
                     JsonTree.parse(response.getContentAsString()));
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H2_TLS" })
    void answerBeforeTheBodyIsRead_endsCleanly_theBodyIsDrained(Transport transport) throws Exception {
        start(DocumentApiConfig.defaults());
        byte[] big = ("{\"fields\":{\"artist\":\"" + "a".repeat(3 << 20) + "\"}}").getBytes(StandardCharsets.UTF_8);
        for (String path : new String[] { "/document/v1/ns/nosuchtype/docid/a", DOC + "?dryRun=true" }) {
            CompletableFuture<Result> done = new CompletableFuture<>();
            var listener = new BufferingResponseListener(1 << 20) {
                @Override
                public void onComplete(Result result) {
                    done.complete(result);
                }
            };
            fixture.request(transport, path).method(HttpMethod.POST)
                   .body(new BytesRequestContent("application/json", big)).send(listener);
            Result result = done.get(60, TimeUnit.SECONDS);
            // A reset stream (RST_STREAM CANCEL) or a closed connection would fail the request side.
            assertNull(result.getRequestFailure(), path);
            assertNull(result.getResponseFailure(), path);
            assertEquals(path.contains("dryRun") ? 200 : 400, result.getResponse().getStatus(), listener.getContentAsString());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H2_TLS" })
    void gzippedBodyOverLimitWhenInflated_returns413(Transport transport) throws Exception {
        start(new DocumentApiConfig(DocumentApiConfig.MIB, Duration.ofSeconds(180), false, 256, 100 * DocumentApiConfig.MIB));
        byte[] body = ("{\"fields\":{\"artist\":\"" + "x".repeat(2 << 20) + "\"}}").getBytes(StandardCharsets.UTF_8);
        byte[] gzipped = ProtocolTest.gzip(body);
        ContentResponse response = fixture.request(transport, DOC).method(HttpMethod.POST)
                                          .headers(headers -> headers.put(HttpHeader.CONTENT_ENCODING, "gzip"))
                                          .body(new BytesRequestContent("application/json", gzipped)).send();
        assertEquals(413, response.getStatus(), response.getContentAsString());
        String message = (String) JsonTree.object(response.getContentAsString()).get("message");
        assertEquals(true, message.startsWith("Document operation request size "), message);
        assertEquals(true, message.contains(" bytes exceeds maximum size of 1048576 bytes."), message);
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE", "H2_TLS" })
    void gzippedBodyUnderLimit_isStored(Transport transport) throws Exception {
        start(DocumentApiConfig.defaults());
        byte[] body = ("{\"fields\":{\"artist\":\"" + "y".repeat(5000) + "\"}}").getBytes(StandardCharsets.UTF_8);
        ContentResponse response = fixture.request(transport, DOC).method(HttpMethod.POST)
                                          .headers(headers -> headers.put(HttpHeader.CONTENT_ENCODING, "gzip"))
                                          .body(new BytesRequestContent("application/json", ProtocolTest.gzip(body))).send();
        assertEquals(200, response.getStatus(), response.getContentAsString());
        assertEquals("y".repeat(5000), ((Map<?, ?>) JsonTree.object(fixture.request(transport, DOC).send().getContentAsString())
                                                            .get("fields")).get("artist"));
    }

    @Test
    void notConfigured_returns404NotFoundBody() throws Exception {
        fixture = ServerFixture.start(pki, ServerFixture.cluster(pki, java.util.List.of(), io.sluice.config.AccessLogConfig.disabled()),
                                      io.sluice.container.HandlerRegistration.of("test", new io.sluice.container.document.DocumentApiNotConfiguredHandler(),
                                                                                 DocumentV1ApiHandler.BINDING));
        ContentResponse response = fixture.request(Transport.H1, "/document/v1/ns/music/docid/a").send();
        assertEquals(404, response.getStatus());
        assertEquals(Map.of("error-code", "NOT_FOUND",
                            "message", "Document API is not configured in this cluster. See https://docs.vespa.ai/en/reference/services-container.html#document-api"),
                     JsonTree.parse(response.getContentAsString()));
    }

}

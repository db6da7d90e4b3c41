package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.JsonTree;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The document API's size limit mechanism: it counts inflated bytes, so a small gzip bomb is refused. */
class RequestSizeLimitTest {

    private static final int LIMIT = 4096;

    @TempDir
    Path certificates;

    private ServerFixture fixture;

    @BeforeEach
    void start() {
        TestPki pki = TestPki.create(certificates);
        fixture = ServerFixture.start(pki, ServerFixture.cluster(pki, List.of(), AccessLogConfig.disabled()),
                                      HandlerRegistration.of("test", new EchoHandler(), "http://*/limited/*")
                                                         .withRequestSizeLimit(LIMIT));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private ContentResponse putGzipped(Transport transport, byte[] body) throws Exception {
        return fixture.request(transport, "/limited/doc")
                      .method(HttpMethod.PUT)
                      .headers(headers -> headers.put(HttpHeader.CONTENT_ENCODING, "gzip"))
                      .body(new BytesRequestContent("application/json", ProtocolTest.gzip(body)))
                      .send();
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE" })
    void gzipBodyInflatingOverLimit_returns413(Transport transport) throws Exception {
        byte[] body = new byte[LIMIT * 4];
        assertTrue(ProtocolTest.gzip(body).length < LIMIT);
        ContentResponse response = putGzipped(transport, body);
        assertEquals(HttpStatus.PAYLOAD_TOO_LARGE_413, response.getStatus());
        String message = (String) JsonTree.object(response.getContentAsString()).get("message");
        assertTrue(message.endsWith("exceeds limit of " + LIMIT + " bytes (counted after inflation)"), message);
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = { "H1", "H2C_PRIOR_KNOWLEDGE" })
    void gzipBodyInflatingUnderLimit_isServed(Transport transport) throws Exception {
        ContentResponse response = putGzipped(transport, new byte[LIMIT - 1]);
        assertEquals(HttpStatus.OK_200, response.getStatus());
        assertEquals(LIMIT - 1, response.getContent().length);
    }

}

package io.sluice.container.document;

import io.sluice.container.JsonTree;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Bodies are bounded before they are buffered, inflated and checked by the handler, and leave nothing behind. */
class RequestBodyLimitsTest {

    private static final String DOC = "/document/v1/ns/music/docid/one";
    private static final String PUT_BODY = "{\"fields\":{\"title\":\"hello world\"}}";
    private static final String GZIP = "Content-Encoding: gzip";

    private final MemoryBudget memory = MemoryBudget.of(64 * 1024);
    private HandlerFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private HandlerFixture start() throws Exception {
        return fixture = HandlerFixture.create(builder -> builder.bodyMemory(memory));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private void assertError(HttpTester.Response response, int status, String message) {
        assertEquals(status, response.getStatus(), response.getContent());
        assertEquals(Map.of("pathId", DOC, "message", message), JsonTree.parse(response.getContent()));
    }

    /** Nothing was stored, and every reservation was returned. */
    private void assertNothingStoredOrHeld() throws Exception {
        assertEquals(404, fixture.send("GET", DOC).getStatus());
        assertEquals(0, memory.reserved());
    }

    @Test
    void gzipPut_isInflatedAndStored() throws Exception {
        start();
        assertEquals(200, fixture.sendBytes("POST", DOC, GzipInflationTest.gzip(utf8(PUT_BODY)), GZIP).getStatus());
        assertEquals("hello world", ((Map<?, ?>) JsonTree.object(fixture.send("GET", DOC).getContent()).get("fields")).get("title"));
        assertEquals(0, memory.reserved());
    }

    @Test
    void gzipWithWrongCrc_returns400AndStoresNothing() throws Exception {
        start();
        byte[] corrupt = GzipInflationTest.gzip(utf8(PUT_BODY));
        corrupt[corrupt.length - 8] ^= 0x01;
        assertError(fixture.sendBytes("POST", DOC, corrupt, GZIP), 400,
                    "Invalid gzip request body: CRC-32 mismatch: the data is corrupt");
        assertNothingStoredOrHeld();
    }

    @Test
    void truncatedGzip_returns400AndStoresNothing() throws Exception {
        start();
        byte[] whole = GzipInflationTest.gzip(utf8(PUT_BODY));
        assertError(fixture.sendBytes("POST", DOC, Arrays.copyOf(whole, whole.length - 4), GZIP), 400,
                    "Invalid gzip request body: body ends inside the gzip stream (truncated)");
        assertNothingStoredOrHeld();
    }

    @Test
    void plainBodyDeclaredGzip_returns400() throws Exception {
        start();
        assertError(fixture.sendBytes("POST", DOC, utf8(PUT_BODY), GZIP), 400,
                    "Invalid gzip request body: not gzip data (no gzip magic number)");
        assertNothingStoredOrHeld();
    }

    @Test
    void gzipBomb_returns413OnInflatedSizeAndHoldsNothing() throws Exception {
        start();
        byte[] bomb = GzipInflationTest.gzip(new byte[10 * 1024 * 1024]); // ~10 KB on the wire
        assertError(fixture.sendBytes("POST", DOC, bomb, GZIP), 413,
                    "Document operation request size 81920 bytes exceeds the 65536 bytes this server can hold for request "
                    + "bodies (1/8 of its heap); give it a larger heap to accept this document");
        assertNothingStoredOrHeld();
    }

    @Test
    void otherContentEncoding_returns415() throws Exception {
        start();
        assertError(fixture.sendBytes("POST", DOC, utf8(PUT_BODY), "Content-Encoding: br"), 415,
                    "Unsupported Content-Encoding 'br': only gzip is supported");
    }

    @Test
    void declaredSizeOverMemoryBudget_returns413BeforeReading() throws Exception {
        start();
        byte[] large = utf8("{\"fields\":{\"title\":\"" + "x".repeat(70 * 1024) + "\"}}");
        HttpTester.Response response = fixture.sendBytes("POST", DOC, large);
        assertEquals(413, response.getStatus());
        assertNothingStoredOrHeld();
    }

    @Test
    void bodyMemoryHeldByOthers_returns429() throws Exception {
        start();
        memory.tryReserve(60 * 1024); // other requests' bodies
        assertError(fixture.sendBytes("POST", DOC, utf8("{\"fields\":{\"title\":\"" + "x".repeat(8 * 1024) + "\"}}")), 429,
                    "Rejecting execution due to overload: request bodies in memory would exceed 65536 bytes");
        memory.release(60 * 1024);
        assertNothingStoredOrHeld();
    }

    @Test
    void overlongUtf8_returns400AndStoresNothing() throws Exception {
        start();
        byte[] body = utf8("{\"fields\":{\"title\":\"a?b\"}}");
        byte[] overlong = new byte[body.length + 1];
        int question = new String(body, StandardCharsets.UTF_8).indexOf('?');
        System.arraycopy(body, 0, overlong, 0, question);
        overlong[question] = (byte) 0xc0;
        overlong[question + 1] = (byte) 0xaf; // an overlong '/'
        System.arraycopy(body, question + 1, overlong, question + 2, body.length - question - 1);
        assertError(fixture.sendBytes("POST", DOC, overlong), 400,
                    "Request body is not valid UTF-8: invalid byte 0xc0 at offset " + question);
        assertNothingStoredOrHeld();
    }

    @Test
    void codePointPastUnicode_returns400() throws Exception {
        start();
        byte[] body = utf8("{\"fields\":{\"title\":\"ab\"}}");
        int a = new String(body, StandardCharsets.UTF_8).indexOf('a');
        byte[] bad = new byte[body.length + 2];
        System.arraycopy(body, 0, bad, 0, a);
        System.arraycopy(new byte[] { (byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80 }, 0, bad, a, 4);
        System.arraycopy(body, a + 2, bad, a + 4, body.length - a - 2);
        assertError(fixture.sendBytes("POST", DOC, bad), 400, "Request body is not valid UTF-8: invalid byte 0xf4 at offset " + a);
        assertNothingStoredOrHeld();
    }

}

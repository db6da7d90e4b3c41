package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HttpFeedClientTest {

    private final HttpFeedClient client = new HttpFeedClient(null, new StatsCollector(), CircuitBreaker.FUSED,
                                                             Compression.AUTO, Duration.ofMinutes(1), false, () -> { });
    private final HttpFeedClient speedTest = new HttpFeedClient(null, new StatsCollector(), CircuitBreaker.FUSED,
                                                                Compression.AUTO, Duration.ofMinutes(1), true, () -> { });

    private static HttpResponse response(int code, String body) {
        return new HttpResponse(code, body.getBytes(StandardCharsets.UTF_8));
    }

    private static final HttpRequest POST = new HttpRequest("POST", "/document/v1/ns/t/docid/a?create=true", HttpRequest.NO_BODY, false, 0, 0);

    @Test
    void path_encodesSegmentsAndUsesNumberAndGroupRoutes() {
        assertEquals("/document/v1/ns/t/docid/a%2Fb%20c%2B", client.pathAndQuery(DocumentId.of("id:ns:t::a/b c+"), OperationParameters.empty()));
        assertEquals("/document/v1/ns/t/number/18/x", client.pathAndQuery(DocumentId.of("id:ns:t:n=18:x"), OperationParameters.empty()));
        assertEquals("/document/v1/ns/t/group/%C3%A6%20g/x", client.pathAndQuery(DocumentId.of("id:ns:t:g=æ g:x"), OperationParameters.empty()));
    }

    @Test
    void query_inOfficialOrder() {
        OperationParameters params = OperationParameters.empty().tracelevel(3).route("r").testAndSetCondition("t.x==1")
                                                        .createIfNonExistent(true);
        assertEquals("/document/v1/ns/t/docid/a?create=true&condition=t.x%3D%3D1&route=r&tracelevel=3&dryRun=true",
                     speedTest.pathAndQuery(DocumentId.of("id:ns:t::a"), params));
    }

    @Test
    void status200_isSuccess_withMessageAndTrace() {
        Result result = HttpFeedClient.toResult(DocumentId.of("id:ns:t::a"), POST,
                                                response(200, "{\"pathId\":\"p\",\"trace\":[{\"message\":\"m\"}],\"message\":\"ok\"}"));
        assertEquals(new Result(Result.Type.SUCCESS, DocumentId.of("id:ns:t::a"), Optional.of("ok"), Optional.of("[{\"message\":\"m\"}]")), result);
    }

    @Test
    void status404_isFeedExceptionWithoutQuery() {
        FeedException e = assertThrows(FeedException.class,
                () -> HttpFeedClient.toResult(DocumentId.of("id:ns:t::a"), POST, response(404, "{\"message\":\"nope\"}")));
        assertEquals("(id:ns:t::a) Status 404 executing 'POST /document/v1/ns/t/docid/a': nope", e.getMessage());
    }

    @Test
    void status504_isResultException() {
        FeedException e = assertThrows(FeedException.class,
                () -> HttpFeedClient.toResult(DocumentId.of("id:ns:t::a"), POST, response(504, "{\"message\":\"timeout\"}")));
        assertEquals("(id:ns:t::a) timeout", assertInstanceOf(ResultException.class, e).getMessage());
    }

    @Test
    void emptyBody_isResultParseException() {
        assertThrows(ResultParseException.class, () -> HttpFeedClient.toResult(DocumentId.of("id:ns:t::a"), POST, response(200, "")));
    }

}

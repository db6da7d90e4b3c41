package io.sluice.container.document;

import io.sluice.container.Metric;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code httpapi_bytes_received} and {@code httpapi_bytes_sent} count each body once, whatever answered it. */
class BytesMetricsTest {

    @Test
    void everyBody_isCountedOnce() throws Exception {
        try (HandlerFixture fixture = HandlerFixture.create()) {
            String document = "{\"fields\":{\"title\":\"Hey\"}}";
            String update = "{\"fields\":{\"title\":{\"assign\":\"Ho\"}}}";
            long sent = 0;
            for (HttpTester.Response response : new HttpTester.Response[] {
                    fixture.send("POST", "/document/v1/ns/music/docid/a", document),
                    fixture.send("GET", "/document/v1/ns/music/docid/a"),
                    fixture.send("GET", "/document/v1/ns/music/docid/missing"),
                    fixture.send("GET", "/document/v1/ns/music/docid?cluster=music"), // a visit's page
                    fixture.send("PUT", "/document/v1/ns/music/docid?cluster=music&selection=true",
                                 update), // update-where
                    fixture.send("GET", "/document/v1/ns/music/docid/a?timeout=x") }) { // refused by the handler
                assertEquals(response.getContentBytes().length, response.getLongField("Content-Length"));
                sent += response.getContentBytes().length;
            }
            assertEquals(sent, counter(fixture, "httpapi_bytes_sent"));
            assertEquals((document + update).getBytes(StandardCharsets.UTF_8).length,
                         counter(fixture, "httpapi_bytes_received"));
        }
    }

    private static long counter(HandlerFixture fixture, String name) {
        return fixture.handler.metrics().metrics().stream().filter(metric -> metric.name().equals(name))
                      .map(Metric::values).findFirst().orElseThrow().get("count").longValue();
    }

}

package io.sluice.container.document;

import io.sluice.container.JsonTree;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Visits are bounded in number: a slot is held until the streamed response has been sent, not only decided. */
class VisitLimitTest {

    private static final String VISIT = "/document/v1/ns/music/docid?stream=true";

    private final List<Exchange> streaming = new CopyOnWriteArrayList<>();
    private HandlerFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    /** Visit routes that take the response over and keep it open until the test ends it. */
    private final class Holding implements VisitRoutes {
        @Override public void visit(DocumentRequest request) { hold(request); }
        @Override public void copy(DocumentRequest request) { hold(request); }
        @Override public void updateWhere(DocumentRequest request) { hold(request); }
        @Override public void deleteWhere(DocumentRequest request) { hold(request); }

        private void hold(DocumentRequest request) {
            request.exchange().takeOver(200);
            streaming.add(request.exchange());
        }
    }

    private void awaitStreaming(int count) throws InterruptedException {
        for (int i = 0; i < 1000 && streaming.size() < count; i++)
            Thread.sleep(10); // polls for another thread's progress; no timing is asserted
        assertEquals(count, streaming.size());
    }

    @Test
    void visitsBeyondLimit_return429UntilOneEnds() throws Exception {
        fixture = HandlerFixture.withVisitRoutes(context -> new Holding(), builder -> builder.maxVisits(2));
        List<LocalConnector.LocalEndPoint> open = new ArrayList<>();
        open.add(fixture.start("GET", VISIT, null));
        open.add(fixture.start("GET", VISIT, null));
        awaitStreaming(2);

        HttpTester.Response refused = fixture.send("GET", VISIT);
        assertEquals(429, refused.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid",
                            "message", "Rejecting execution due to overload: 2 visits already running"),
                     JsonTree.parse(refused.getContent()));

        streaming.get(0).callback().succeeded(); // one of the two ends
        fixture.start("DELETE", "/document/v1/ns/music/docid?selection=true&cluster=music", null);
        awaitStreaming(3);
        streaming.stream().skip(1).forEach(exchange -> exchange.callback().succeeded());
        for (LocalConnector.LocalEndPoint endpoint : open)
            assertEquals(200, HttpTester.parseResponse(endpoint.getResponse()).getStatus());
    }

}

package io.sluice.container.document;

import io.sluice.config.VisitLimits;
import io.sluice.container.JsonTree;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Visits are bounded in number: a slot is held until the streamed response has been sent, not only decided; one
 * connection holds at most its share; a visit whose client takes no data for the stall timeout is ended.
 */
class VisitLimitTest {

    private static final Duration STALL = Duration.ofSeconds(30);

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
        fixture = HandlerFixture.withVisitRoutes(context -> new Holding(), builder -> builder.visitLimits(new VisitLimits(2, 2, 2, STALL)));
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

    @Test
    void visitsFromOneAddressOnTwoConnections_eachWithinTheConnectionShare_areBothServed() throws Exception {
        fixture = HandlerFixture.withVisitRoutes(context -> new Holding(),
                                                 builder -> builder.visitLimits(new VisitLimits(4, 4, 1, STALL)));
        LocalConnector.LocalEndPoint first = fixture.connector().connect();
        first.addInput(new String(HandlerFixture.raw("GET", VISIT, null), java.nio.charset.StandardCharsets.ISO_8859_1));
        awaitStreaming(1);
        // a second visit pipelined on the same connection waits behind the first in HTTP/1.1; on a new connection it runs
        LocalConnector.LocalEndPoint second = fixture.start("GET", VISIT, null);
        awaitStreaming(2);
        streaming.forEach(exchange -> exchange.callback().succeeded());
        assertEquals(200, HttpTester.parseResponse(first.getResponse()).getStatus());
        assertEquals(200, HttpTester.parseResponse(second.getResponse()).getStatus());
    }

    @Test
    void visitWhoseClientTakesNoData_isEndedAfterTheStallTimeout_andItsSlotServesAnother() throws Exception {
        fixture = HandlerFixture.withVisitRoutes(context -> new Holding(),
                                                 builder -> builder.visitLimits(new VisitLimits(1, 1, 1, STALL)));
        LocalConnector.LocalEndPoint stalled = fixture.start("GET", VISIT, null);
        awaitStreaming(1);
        streaming.get(0).writeWatch().writing(); // as a write the client never takes
        assertEquals(429, fixture.send("GET", VISIT).getStatus());

        fixture.clock.advance(STALL.minusMillis(1));
        fixture.scheduler.fireAll();
        assertEquals(429, fixture.send("GET", VISIT).getStatus());
        fixture.clock.advance(Duration.ofMillis(1));
        fixture.scheduler.fireAll();

        assertEquals(1, fixture.handler.visitSlots().stalledVisits());
        LocalConnector.LocalEndPoint next = fixture.start("GET", VISIT, null);
        awaitStreaming(2);
        streaming.get(1).callback().succeeded();
        assertEquals(200, HttpTester.parseResponse(next.getResponse()).getStatus());
        stalled.getResponse(); // the ended exchange's connection closes without a complete response
        streaming.get(0).callback().succeeded(); // a late completion of the ended exchange changes nothing
        assertEquals(0, fixture.handler.visitSlots().running());
    }

}

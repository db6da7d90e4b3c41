package io.sluice.container.faults;

import io.sluice.container.JsonTree;
import io.sluice.container.LocalServer;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FaultInjectionHandlerTest {

    /** Answers 200 and counts the requests that reach it: what a faulted request must not do. */
    static final class Counting extends Handler.Abstract.NonBlocking {
        final AtomicInteger handled = new AtomicInteger();

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            handled.incrementAndGet();
            response.write(true, null, callback);
            return true;
        }
    }

    private final Counting backend = new Counting();
    private final List<Runnable> delayed = new ArrayList<>();

    private LocalServer server(Faults faults) throws Exception {
        return LocalServer.start(new FaultInjectionHandler(faults, (request, millis, task) -> delayed.add(task), backend));
    }

    @Test
    void shares_over10000Requests_areWithinOnePercentagePoint_andFaultedRequestsNeverReachTheHandler() throws Exception {
        Faults faults = Faults.of(FaultSpec.parse("429@20%,503@5%"), 7);
        int[] statuses = new int[600];
        try (LocalServer server = server(faults)) {
            for (int i = 0; i < 10_000; i++)
                statuses[server.request(i % 2 == 0 ? "POST" : "GET", "/document/v1/ns/music/docid/" + i).getStatus()]++;
        }
        assertEquals(10_000, statuses[200] + statuses[429] + statuses[503]);
        assertTrue(Math.abs(statuses[429] / 100.0 - 20) <= 1, statuses[429] + " 429s");
        assertTrue(Math.abs(statuses[503] / 100.0 - 5) <= 1, statuses[503] + " 503s");
        assertEquals(statuses[200], backend.handled.get());
        assertEquals(statuses[429], faults.injected(FaultRule.Kind.OVERLOAD));
        assertEquals(10_000, faults.requests());
    }

    @Test
    void sameSeed_sameFaults() throws Exception {
        assertEquals(statuses(11), statuses(11));
    }

    private List<Integer> statuses(long seed) throws Exception {
        List<Integer> statuses = new ArrayList<>();
        try (LocalServer server = server(Faults.of(FaultSpec.parse("429@30%,504@10%"), seed))) {
            for (int i = 0; i < 50; i++)
                statuses.add(server.get("/document/v1/ns/music/docid/" + i).getStatus());
        }
        return statuses;
    }

    @Test
    void overload_answersVespaShapedJson() throws Exception {
        try (LocalServer server = server(Faults.of(FaultSpec.parse("429@100%"), 1))) {
            HttpTester.Response response = server.request("POST", "/document/v1/ns/music/docid/a");
            assertEquals(429, response.getStatus());
            assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/a",
                                "message", "Rejecting execution due to overload (fault injected by Sluice: 429@100%)"),
                         JsonTree.object(response.getContent()));
            assertEquals(0, backend.handled.get());
        }
    }

    @Test
    void filters_matchMethodTypeAndId() throws Exception {
        try (LocalServer server = server(Faults.of(FaultSpec.parse("507@100%&method=PUT&type=music&id=id:ns:music::a*"), 1))) {
            assertEquals(507, server.request("PUT", "/document/v1/ns/music/docid/abc").getStatus());
            assertEquals(200, server.request("POST", "/document/v1/ns/music/docid/abc").getStatus());
            assertEquals(200, server.request("PUT", "/document/v1/ns/books/docid/abc").getStatus());
            assertEquals(200, server.request("PUT", "/document/v1/ns/music/docid/bcd").getStatus());
            assertEquals(200, server.request("PUT", "/document/v1/ns/music/docid/").getStatus()); // a selection: no id
        }
    }

    @Test
    void delay_isScheduled_thenHandled() throws Exception {
        Faults faults = Faults.of(FaultSpec.parse("delay=250ms@100%"), 1);
        try (LocalServer server = LocalServer.start(new FaultInjectionHandler(faults, (request, millis, task) -> {
            assertEquals(250, millis);
            assertEquals(0, backend.handled.get());
            task.run(); // as the scheduler would, later, on another thread
        }, backend))) {
            assertEquals(200, server.get("/document/v1/ns/music/docid/a").getStatus());
            assertEquals(1, backend.handled.get());
        }
    }

    @Test
    void replace_withSeed_restartsDraws_andNoneStopsFaults() throws Exception {
        Faults faults = Faults.of(FaultSpec.parse("503@50%"), 3);
        try (LocalServer server = server(faults)) {
            List<Integer> first = new ArrayList<>(), again = new ArrayList<>();
            for (int i = 0; i < 20; i++) first.add(server.get("/document/v1/ns/music/docid/a").getStatus());
            faults.replace(FaultSpec.parse("503@50%"), OptionalLong.of(3));
            for (int i = 0; i < 20; i++) again.add(server.get("/document/v1/ns/music/docid/a").getStatus());
            assertEquals(first, again);
            faults.replace(FaultPlan.NONE, OptionalLong.empty());
            for (int i = 0; i < 20; i++) assertEquals(200, server.get("/document/v1/ns/music/docid/a").getStatus());
        }
    }

}

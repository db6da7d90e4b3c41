package io.sluice.container.faults;

import io.sluice.container.JsonTree;
import io.sluice.container.LocalServer;
import io.sluice.container.Metric;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FaultsHandlerTest {

    private final Faults faults = Faults.of(FaultSpec.parse("429@20%"), 5);

    private static HttpTester.Response put(LocalServer server, String body) throws Exception {
        return server.raw("PUT " + FaultsHandler.PATH + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + body.length()
                          + "\r\nConnection: close\r\n\r\n" + body);
    }

    @Test
    void get_showsFaultsSeedAndCounts() throws Exception {
        try (LocalServer server = LocalServer.start(new FaultsHandler(faults))) {
            HttpTester.Response response = server.get(FaultsHandler.PATH);
            assertEquals(200, response.getStatus());
            assertEquals(Map.of("spec", "429@20%", "seed", 5L,
                                "faults", List.of(Map.of("fault", "429", "percent", 20.0)),
                                "requests", 0L,
                                "injected", Map.of("429", 0L, "503", 0L, "504", 0L, "507", 0L, "delay", 0L, "drop", 0L)),
                         JsonTree.object(response.getContent()));
        }
    }

    @Test
    void put_replacesFaultsAndSeed() throws Exception {
        try (LocalServer server = LocalServer.start(new FaultsHandler(faults))) {
            HttpTester.Response response = put(server, "{\"faults\":[{\"fault\":\"drop\",\"percent\":2.5,\"type\":\"music\"}],\"seed\":9}");
            assertEquals(200, response.getStatus(), response.getContent());
            assertEquals("drop@2.5%&type=music", faults.plan().toString());
            assertEquals(9, faults.seed());
        }
    }

    @Test
    void put_badBody_is400NamingIt_andChangesNothing() throws Exception {
        try (LocalServer server = LocalServer.start(new FaultsHandler(faults))) {
            HttpTester.Response response = put(server, "{\"faults\":[{\"fault\":\"418\",\"percent\":1}]}");
            assertEquals(400, response.getStatus());
            assertEquals(Map.of("message", "Bad faults: faults[0]: fault '418' is not one of 429, 503, 504, 507, delay, drop"),
                         JsonTree.object(response.getContent()));
            assertEquals("429@20%", faults.plan().toString());
        }
    }

    @Test
    void delete_removesEveryFault() throws Exception {
        try (LocalServer server = LocalServer.start(new FaultsHandler(faults))) {
            assertEquals(200, server.request("DELETE", FaultsHandler.PATH).getStatus());
            assertEquals(FaultPlan.NONE, faults.plan());
            assertEquals(405, server.request("POST", FaultsHandler.PATH).getStatus());
        }
    }

    @Test
    void metrics_showRulesInForce() {
        Faults faults = Faults.of(FaultSpec.parse("503@5%&method=PUT"), 1);
        Metric rule = faults.metrics().stream().filter(m -> m.name().equals("sluice_faults_percent")).findFirst().orElseThrow();
        assertEquals(Map.of("rule", "0", "fault", "503", "method", "PUT"), rule.dimensions());
        assertEquals(5.0, rule.values().get("last"));
    }

}

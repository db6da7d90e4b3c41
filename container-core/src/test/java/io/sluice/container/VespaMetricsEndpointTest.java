package io.sluice.container;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /metrics/v2/values} and {@code /prometheus/v1/values}: Vespa's shapes, suffixes, dimensions and periods. */
class VespaMetricsEndpointTest {

    private final ManualClock clock = new ManualClock(Instant.ofEpochSecond(1_700_000_000));
    private final RequestStatistics statistics = new RequestStatistics(clock);
    private final MetricsSources sources = new MetricsSources();
    private final AtomicLong succeeded = new AtomicLong();

    private LocalServer start() throws Exception {
        var registry = new HandlerRegistry();
        var application = new ApplicationInfo("music-app", "/apps/music-app", "abc123", 1, clock.instant());
        sources.add(() -> List.of(Metric.counter("httpapi_succeeded", Map.of(), succeeded.get()),
                                  Metric.gauge("httpapi_pending", Map.of(), 3),
                                  Metric.gauge("serverNumOpenConnections", Map.of("serverName", "default", "serverPort", "8080"), 2)));
        StatusHandlers.register(registry, new StatusContext(new ServiceHealth(), statistics, application, List.of("default"),
                                                            clock, sources),
                                "feed", new MetricsWindow(clock, Duration.ofSeconds(60)));
        return LocalServer.start(new BindingRouter(registry.registrations()));
    }

    private static Map<?, ?> service(Map<String, Object> root) {
        Map<?, ?> node = (Map<?, ?>) ((List<?>) root.get("nodes")).get(0);
        return (Map<?, ?>) ((List<?>) node.get("services")).get(0);
    }

    /** The values of the metric set with exactly {@code dimensions} beyond the service's. */
    private static Map<?, ?> values(Map<?, ?> service, Map<String, String> dimensions) {
        for (Object set : (List<?>) service.get("metrics")) {
            Map<?, ?> setDimensions = (Map<?, ?>) ((Map<?, ?>) set).get("dimensions");
            if (setDimensions.entrySet().containsAll(dimensions.entrySet()) && setDimensions.size() == 4 + dimensions.size())
                return (Map<?, ?>) ((Map<?, ?>) set).get("values");
        }
        throw new AssertionError("No metric set with dimensions " + dimensions + " in " + service);
    }

    @Test
    void v2_reportsTheContainerServiceWithVespaSuffixesAndDimensions() throws Exception {
        statistics.record(2_000_000, 200);
        succeeded.set(30);
        try (var server = start()) {
            clock.advance(Duration.ofSeconds(10));
            var response = server.get("/metrics/v2/values");
            assertEquals(200, response.getStatus());
            Map<?, ?> service = service(JsonTree.object(response.getContent()));
            assertEquals("vespa.container", service.get("name"));
            assertEquals(Map.of("code", "initializing", "description", "Data collected successfully"), service.get("status"));
            Map<?, ?> plain = values(service, Map.of());
            assertEquals(30L, plain.get("httpapi_succeeded.count"));
            assertEquals(3.0, plain.get("httpapi_succeeded.rate")); // 30 over the 10 s since start
            assertEquals(3.0, plain.get("httpapi_pending.last"));
            assertEquals(3.0, plain.get("httpapi_pending.max"));
            assertEquals(1L, plain.get("serverNumRequests.count"));
            assertEquals(2.0, plain.get("jdisc.http.latency.max"));
            assertEquals(2.0, plain.get("jdisc.http.latency.average"));
            Map<?, ?> first = (Map<?, ?>) ((List<?>) service.get("metrics")).get(0);
            assertEquals(Map.of("serviceId", "container", "clustertype", "container", "clustername", "feed",
                                "applicationId", "music-app"), first.get("dimensions"));
            assertEquals(2.0, values(service, Map.of("serverName", "default", "serverPort", "8080")).get("serverNumOpenConnections.last"));
        }
    }

    @Test
    void v2_countersReportTheirGrowthOverTheLastCompletePeriod() throws Exception {
        try (var server = start()) {
            succeeded.set(60);
            clock.advance(Duration.ofSeconds(60));
            Map<?, ?> first = values(service(JsonTree.object(server.get("/metrics/v2/values").getContent())), Map.of());
            assertEquals(60L, first.get("httpapi_succeeded.count"));
            assertEquals(1.0, first.get("httpapi_succeeded.rate"));
            succeeded.set(660); // 600 more during the next period, read halfway and at its end
            clock.advance(Duration.ofSeconds(30));
            Map<?, ?> halfway = values(service(JsonTree.object(server.get("/metrics/v2/values").getContent())), Map.of());
            assertEquals(60L, halfway.get("httpapi_succeeded.count")); // still the last complete period
            clock.advance(Duration.ofSeconds(30));
            Map<?, ?> second = values(service(JsonTree.object(server.get("/metrics/v2/values").getContent())), Map.of());
            assertEquals(600L, second.get("httpapi_succeeded.count"));
            assertEquals(10.0, second.get("httpapi_succeeded.rate"));
        }
    }

    @Test
    void prometheus_rendersVespaNamesWithTheServiceLabel() throws Exception {
        succeeded.set(5);
        try (var server = start()) {
            clock.advance(Duration.ofSeconds(5));
            var response = server.get("/prometheus/v1/values");
            assertEquals(200, response.getStatus());
            assertTrue(response.get("Content-Type").startsWith("text/plain; version=0.0.4"), response.get("Content-Type"));
            List<String> lines = response.getContent().lines().toList();
            String labels = "{applicationId=\"music-app\",clustername=\"feed\",clustertype=\"container\",serviceId=\"container\","
                            + "vespa_service=\"vespa_container\",}";
            assertTrue(lines.contains("httpapi_succeeded_rate" + labels + " 1.0 1700000005000"), lines.toString());
            assertTrue(lines.contains("# TYPE httpapi_succeeded_rate untyped"), lines.toString());
            assertTrue(lines.stream().anyMatch(line -> line.startsWith("serverNumOpenConnections_last{applicationId=\"music-app\"")
                                                       && line.contains("serverName=\"default\",serverPort=\"8080\"")),
                       lines.toString());
        }
    }

}

package io.sluice.container;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /state/v1/metrics}: status classes, percentiles and handler sources, as JSON and as Prometheus text. */
class MetricsEndpointTest {

    private final ManualClock clock = new ManualClock(Instant.ofEpochSecond(1_700_000_000));
    private final RequestStatistics statistics = new RequestStatistics(clock);
    private final MetricsSources sources = new MetricsSources();

    private LocalServer start() throws Exception {
        var registry = new HandlerRegistry();
        var application = new ApplicationInfo("default", "/apps/default", "abc123", 1, clock.instant());
        StatusHandlers.register(registry, new StatusContext(new ServiceHealth(), statistics, application, List.of("default"),
                                                            clock, sources));
        return LocalServer.start(new BindingRouter(registry.registrations()));
    }

    @Test
    void json_includesStatusClassesAndSources() throws Exception {
        statistics.record(1_000_000, 200);
        statistics.record(1_000_000, 429);
        sources.add(() -> List.of(Metric.counter("httpapi_requests", Map.of("httpMethod", "GET"), 7)));
        try (var server = start()) {
            List<?> values = (List<?>) ((Map<?, ?>) JsonTree.object(server.get("/state/v1/metrics").getContent()).get("metrics")).get("values");
            assertTrue(values.contains(Map.of("name", "http.status.4xx", "values", Map.of("count", 1L), "dimensions", Map.of())), values.toString());
            assertTrue(values.contains(Map.of("name", "httpapi_requests", "values", Map.of("count", 7L),
                                              "dimensions", Map.of("httpMethod", "GET"))), values.toString());
        }
    }

    @Test
    void prometheus_rendersSanitizedNamesWithDimensions() throws Exception {
        statistics.record(2_000_000, 200);
        sources.add(() -> List.of(Metric.counter("httpapi_requests", Map.of("httpMethod", "GET"), 7)));
        try (var server = start()) {
            var response = server.get("/state/v1/metrics?format=prometheus");
            assertEquals(200, response.getStatus());
            assertEquals("text/plain; version=0.0.4", response.get("Content-Type"));
            List<String> lines = response.getContent().lines().toList();
            assertEquals("# NOTE: THIS API IS NOT INTENDED FOR PUBLIC USE", lines.get(0));
            assertTrue(lines.contains("serverNumRequests_count{} 1 1700000000000"), lines.toString());
            assertTrue(lines.contains("http_status_2xx_count{} 1 1700000000000"), lines.toString());
            assertTrue(lines.contains("httpapi_requests_count{httpMethod=\"GET\",} 7 1700000000000"), lines.toString());
            assertTrue(lines.contains("jdisc_http_latency_max{} 2.0 1700000000000"), lines.toString());
        }
    }

}

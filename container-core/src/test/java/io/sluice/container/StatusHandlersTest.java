package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StatusHandlersTest {

    private final ManualClock clock = new ManualClock(Instant.ofEpochSecond(1_700_000_000));
    private final ServiceHealth health = new ServiceHealth();
    private final RequestStatistics statistics = new RequestStatistics(clock);
    private final HandlerRegistry registry = new HandlerRegistry();

    @BeforeEach
    void registerBuiltIns() {
        var application = new ApplicationInfo("default", "/apps/default", "abc123", 1, Instant.ofEpochSecond(1_700_000_000));
        StatusHandlers.register(registry, new StatusContext(health, statistics, application, List.of("default"), clock));
    }

    private LocalServer start() throws Exception {
        return LocalServer.start(new BindingRouter(registry.registrations()));
    }

    @Test
    void health_beforeStart_isInitializing() throws Exception {
        try (var server = start()) {
            Map<String, Object> json = JsonTree.object(server.get("/state/v1/health").getContent());
            assertEquals(Map.of("code", "initializing"), json.get("status"));
        }
    }

    @Test
    void health_up_reportsStatusAndRequestMetrics() throws Exception {
        health.up();
        statistics.record(2_000_000_000L);
        statistics.record(1_000_000_000L);
        clock.advance(Duration.ofSeconds(4));
        try (var server = start()) {
            var response = server.get("/state/v1/health");
            assertEquals(HttpStatus.OK_200, response.getStatus());
            assertEquals(Map.of("time", 1_700_000_004_000L,
                                "status", Map.of("code", "up"),
                                "metrics", Map.of("snapshot", Map.of("from", 1.7e9, "to", 1.700000004e9),
                                                  "values", List.of(
                                                          Map.of("name", "requestsPerSecond",
                                                                 "values", Map.of("count", 2L, "rate", 0.5)),
                                                          Map.of("name", "latencySeconds",
                                                                 "values", Map.of("average", 1.5, "sum", 3.0, "count", 2L,
                                                                                  "last", 1.0, "max", 2.0, "min", 1.0,
                                                                                  "rate", 0.5))))),
                         JsonTree.parse(response.getContent()));
        }
    }

    @Test
    void health_down_isDown() throws Exception {
        health.up();
        health.down();
        try (var server = start()) {
            assertEquals(Map.of("code", "down"), JsonTree.object(server.get("/state/v1/health").getContent()).get("status"));
        }
    }

    @Test
    void health_whileAWatchedPartFails_isDownWithItsMessage_andUpAgainWithout() throws Exception {
        var failure = new java.util.concurrent.atomic.AtomicReference<Optional<String>>(Optional.empty());
        health.watch(failure::get);
        health.up();
        try (var server = start()) {
            failure.set(Optional.of("Content cluster 'music': the log failed"));
            assertEquals(Map.of("code", "down", "message", "Content cluster 'music': the log failed"),
                         JsonTree.object(server.get("/state/v1/health").getContent()).get("status"));
            assertEquals(HttpStatus.NOT_FOUND_404, server.get("/status.html").getStatus());

            failure.set(Optional.empty());
            assertEquals(Map.of("code", "up"), JsonTree.object(server.get("/state/v1/health").getContent()).get("status"));
        }
    }

    @Test
    void version_isProjectVersion() throws Exception {
        try (var server = start()) {
            assertEquals(Map.of("version", SluiceVersion.version()), JsonTree.parse(server.get("/state/v1/version").getContent()));
        }
    }

    @Test
    void version_comesFromBuild() {
        assertEquals(true, SluiceVersion.version().matches("\\d+\\.\\d+\\.\\d+.*"), SluiceVersion.version());
    }

    @Test
    void stateRoot_listsResourcesWithAbsoluteUrls() throws Exception {
        try (var server = start()) {
            assertEquals(Map.of("resources", List.of(Map.of("url", "http://localhost:80/state/v1/metrics"),
                                                     Map.of("url", "http://localhost:80/state/v1/config"),
                                                     Map.of("url", "http://localhost:80/state/v1/health"),
                                                     Map.of("url", "http://localhost:80/state/v1/version"))),
                         JsonTree.parse(server.get("/state/v1/").getContent()));
        }
    }

    @Test
    void stateUnknownResource_returns404() throws Exception {
        try (var server = start()) {
            assertEquals(HttpStatus.NOT_FOUND_404, server.get("/state/v1/nope").getStatus());
        }
    }

    @Test
    void statusHtml_up_returnsOkTitle() throws Exception {
        health.up();
        try (var server = start()) {
            var response = server.get("/status.html");
            assertEquals(HttpStatus.OK_200, response.getStatus());
            assertEquals("<title>OK</title>\n", response.getContent());
        }
    }

    @Test
    void statusHtml_notUp_returns404() throws Exception {
        try (var server = start()) {
            var response = server.get("/status.html");
            assertEquals(HttpStatus.NOT_FOUND_404, response.getStatus());
            assertEquals(StatusHtmlHandler.NOT_IN_ROTATION, response.getContent());
        }
    }

    @Test
    void root_listsEveryRegisteredHandler() throws Exception {
        try (var server = start()) {
            String bundle = StatusHandlers.BUNDLE;
            assertEquals(Map.of("handlers", List.of(
                                 handler(BindingsOverviewHandler.class, bundle, "http://*/"),
                                 handler(StatusHtmlHandler.class, bundle, "http://*/status.html"),
                                 handler(ApplicationStatusHandler.class, bundle, "http://*/ApplicationStatus"),
                                 handler(StateHandler.class, bundle, "http://*/state/v1", "http://*/state/v1/*"),
                                 handler(VespaMetricsHandler.class, bundle, "http://*/metrics/v2/values",
                                         "http://*/prometheus/v1/values"))),
                         JsonTree.parse(server.get("/").getContent()));
        }
    }

    @Test
    void root_post_returns405() throws Exception {
        try (var server = start()) {
            var response = server.request("POST", "/");
            assertEquals(HttpStatus.METHOD_NOT_ALLOWED_405, response.getStatus());
            assertEquals("GET, HEAD", response.get("Allow"));
        }
    }

    @Test
    void applicationStatus_describesApplicationHandlersAndServers() throws Exception {
        try (var server = start()) {
            Map<String, Object> json = JsonTree.object(server.get("/ApplicationStatus").getContent());
            assertEquals(Map.of("vespa", Map.of("version", SluiceVersion.version()),
                                "meta", Map.of("name", "default", "user", System.getProperty("user.name"),
                                               "path", "/apps/default", "generation", 1L,
                                               "timestamp", 1_700_000_000_000L, "date", "2023-11-14T22:13:20Z",
                                               "checksum", "abc123"),
                                "user", Map.of()),
                         json.get("application"));
            assertEquals(List.of(Map.of("id", "default", "class", ApplicationStatusHandler.SERVER_CLASS,
                                        "bundle", "jetty-server", "serverBindings", List.of())),
                         json.get("servers"));
            assertEquals(5, ((List<?>) json.get("handlers")).size());
        }
    }

    private static Map<String, Object> handler(Class<?> type, String bundle, String... bindings) {
        return Map.of("id", type.getName(), "class", type.getName(), "bundle", bundle, "serverBindings", List.of(bindings));
    }

}

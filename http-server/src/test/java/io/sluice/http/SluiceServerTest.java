package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.ContainerCluster;
import io.sluice.config.ServerConfig;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.ServiceHealth;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SluiceServerTest {

    private static ContainerCluster cluster(int port) {
        return new ContainerCluster("c", List.of(ServerConfig.cleartext("plain", port)), Optional.empty(), List.of(),
                                    AccessLogConfig.disabled(), Duration.ofSeconds(1));
    }

    @Test
    void start_portInUse_throwsUncheckedIoNamingThePort() throws Exception {
        try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            var server = SluiceServer.builder(cluster(taken.getLocalPort())).host("127.0.0.1").build();
            var e = assertThrows(UncheckedIOException.class, server::start);
            assertTrue(e.getMessage().contains(String.valueOf(taken.getLocalPort())), e.getMessage());
        }
    }

    @Test
    void handlers_neverBlock_soHttp2RoundsCoalesceTheirWrites() {
        var server = SluiceServer.builder(cluster(0)).host("127.0.0.1").build();
        assertEquals(Invocable.InvocationType.NON_BLOCKING, server.invocationType());
    }

    @Test
    void health_followsLifecycle() {
        var server = SluiceServer.builder(cluster(0)).host("127.0.0.1").build();
        assertEquals(ServiceHealth.Status.INITIALIZING, server.health().status());
        server.start();
        assertEquals(ServiceHealth.Status.UP, server.health().status());
        server.stop();
        assertEquals(ServiceHealth.Status.DOWN, server.health().status());
    }

    @Test
    void handlers_listBuiltInsThenExtras() {
        var server = SluiceServer.builder(cluster(0))
                                 .handler(HandlerRegistration.of("test", new EchoHandler(), EchoHandler.BINDING))
                                 .build();
        assertEquals(List.of("io.sluice.container.BindingsOverviewHandler", "io.sluice.container.StatusHtmlHandler",
                             "io.sluice.container.ApplicationStatusHandler", "io.sluice.container.StateHandler",
                             "io.sluice.container.VespaMetricsHandler", EchoHandler.class.getName()),
                     server.handlers().stream().map(HandlerRegistration::className).toList());
    }

    @Test
    void port_unknownServer_namesIt() {
        var server = SluiceServer.builder(cluster(0)).build();
        var e = assertThrows(IllegalArgumentException.class, () -> server.port("nope"));
        assertEquals("No server with id 'nope'; servers are [plain]", e.getMessage());
    }

}

package io.sluice.http;

import io.sluice.container.Metric;
import io.sluice.container.MetricsSource;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Jetty's figures under Vespa's container metric names: open connections per server
 * ({@code serverNumOpenConnections}, dimensions {@code serverName} and {@code serverPort}) and the request thread pool
 * ({@code jdisc.http.jetty.threadpool.thread.max}, {@code .min}, {@code .reserved}, {@code .busy}, {@code .idle},
 * {@code .total} and {@code jdisc.http.jetty.threadpool.queue.size}). Gauges, read when reported.
 */
final class JettyMetrics implements MetricsSource {

    private final QueuedThreadPool threads;
    private final Map<String, ServerConnector> connectors;

    /** @param connectors the servers by id; read when reported, so connectors added later count too */
    JettyMetrics(QueuedThreadPool threads, Map<String, ServerConnector> connectors) {
        this.threads = threads;
        this.connectors = connectors;
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        connectors.forEach((id, connector) -> metrics.add(Metric.gauge(
                "serverNumOpenConnections", Map.of("serverName", id, "serverPort", String.valueOf(connector.getLocalPort())),
                connector.getConnectedEndPoints().size())));
        metrics.add(Metric.gauge("jdisc.http.jetty.threadpool.thread.max", Map.of(), threads.getMaxThreads()));
        metrics.add(Metric.gauge("jdisc.http.jetty.threadpool.thread.min", Map.of(), threads.getMinThreads()));
        metrics.add(Metric.gauge("jdisc.http.jetty.threadpool.thread.reserved", Map.of(), Math.max(0, threads.getReservedThreads())));
        metrics.add(Metric.gauge("jdisc.http.jetty.threadpool.thread.busy", Map.of(), threads.getBusyThreads()));
        metrics.add(Metric.gauge("jdisc.http.jetty.threadpool.thread.idle", Map.of(), threads.getIdleThreads()));
        metrics.add(Metric.gauge("jdisc.http.jetty.threadpool.thread.total", Map.of(), threads.getThreads()));
        metrics.add(Metric.gauge("jdisc.http.jetty.threadpool.queue.size", Map.of(), threads.getQueueSize()));
        return metrics;
    }

}

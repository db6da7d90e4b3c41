package io.sluice.container;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the status handlers report on.
 *
 * @param health      in rotation or not
 * @param statistics  request counts and latency
 * @param application the running application
 * @param serverIds   the ids of the HTTP servers (connectors)
 * @param clock       the wall clock for {@code time} fields
 * @param metrics     further metrics for {@code /state/v1/metrics}, e.g. the document API's
 */
public record StatusContext(ServiceHealth health, RequestStatistics statistics, ApplicationInfo application,
                            List<String> serverIds, Clock clock, MetricsSources metrics) {

    /** A context without further metric sources yet. */
    public StatusContext(ServiceHealth health, RequestStatistics statistics, ApplicationInfo application,
                         List<String> serverIds, Clock clock) {
        this(health, statistics, application, serverIds, clock, new MetricsSources());
    }

    /**
     * Everything the container reports beyond the two request metrics ({@code serverNumRequests},
     * {@code jdisc.http.latency}): responses by status class, latency percentiles, and the registered sources.
     */
    public List<Metric> extraMetrics() {
        List<Metric> all = new ArrayList<>();
        for (int n = 1; n <= 5; n++)
            all.add(Metric.counter("http.status." + n + "xx", Map.of(), statistics.statusClassCount(n)));
        var percentiles = new LinkedHashMap<String, Number>();
        percentiles.put("50percentile", statistics.latencyPercentileNanos(0.50) / 1e6);
        percentiles.put("95percentile", statistics.latencyPercentileNanos(0.95) / 1e6);
        percentiles.put("99percentile", statistics.latencyPercentileNanos(0.99) / 1e6);
        all.add(new Metric("jdisc.http.latency.percentiles", Map.of(), percentiles));
        all.addAll(metrics.metrics());
        return all;
    }

    /** Every metric the container reports: requests and their latency (ms, since start), then {@link #extraMetrics()}. */
    public List<Metric> allMetrics() {
        RequestStatistics.Snapshot snapshot = statistics.snapshot();
        List<Metric> all = new ArrayList<>();
        all.add(Metric.counter("serverNumRequests", Map.of(), snapshot.count()));
        var latency = new LinkedHashMap<String, Number>();
        latency.put("count", snapshot.count());
        latency.put("sum", snapshot.latencySumNanos() / 1e6);
        latency.put("max", snapshot.latencyMaxNanos() / 1e6);
        all.add(new Metric("jdisc.http.latency", Map.of(), latency));
        all.addAll(extraMetrics());
        return all;
    }

    public StatusContext {
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(statistics, "statistics");
        Objects.requireNonNull(application, "application");
        serverIds = List.copyOf(serverIds);
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(metrics, "metrics");
    }

}

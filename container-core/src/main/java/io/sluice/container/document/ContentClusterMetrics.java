package io.sluice.container.document;

import io.sluice.container.Metric;
import io.sluice.container.MetricsSource;
import io.sluice.content.ContentBackend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The figures each content cluster's backend reports ({@link ContentBackend#statistics()}), as gauges named
 * {@code content.<figure>} with the dimension {@code clusterId}: e.g. {@code content.documents},
 * {@code content.stored_bytes}, {@code content.wal_bytes}, {@code content.recovery_seconds}. A backend that reports
 * nothing (or is closed) adds nothing. Integral figures stay integral, so byte counts print as such.
 */
public final class ContentClusterMetrics implements MetricsSource {

    static final String PREFIX = "content.";
    static final String CLUSTER_DIMENSION = "clusterId";

    private final ContentClusters clusters;

    public ContentClusterMetrics(ContentClusters clusters) {
        this.clusters = Objects.requireNonNull(clusters, "clusters");
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        for (ContentClusters.Cluster cluster : clusters.all()) {
            Map<String, String> dimensions = Map.of(CLUSTER_DIMENSION, cluster.id());
            cluster.backend().statistics().forEach((figure, value) -> metrics.add(gauge(PREFIX + figure, dimensions,
                                                                                        value)));
        }
        return metrics;
    }

    /** Like {@link Metric#gauge}, one sample, but keeping the value's type. */
    private static Metric gauge(String name, Map<String, String> dimensions, Number value) {
        var values = new LinkedHashMap<String, Number>();
        values.put("average", value);
        values.put("sum", value);
        values.put("count", 1);
        values.put("last", value);
        values.put("max", value);
        values.put("min", value);
        return new Metric(name, dimensions, values);
    }

}

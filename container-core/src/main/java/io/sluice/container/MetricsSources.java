package io.sluice.container;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The metric sources {@code /state/v1/metrics} reports besides request statistics; handlers add theirs. Thread-safe. */
public final class MetricsSources {

    private final List<MetricsSource> sources = new CopyOnWriteArrayList<>();

    /** Adds a source, reported from now on. */
    public MetricsSources add(MetricsSource source) {
        sources.add(source);
        return this;
    }

    /** Every metric of every source, in the order sources were added. */
    public List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        for (MetricsSource source : sources)
            metrics.addAll(source.metrics());
        return metrics;
    }

}

package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;

import java.time.Clock;
import java.util.Objects;

/**
 * What the {@code /document/v1} handler's parts share: where documents are, the configuration, time, admission
 * and the metrics. Given to {@link VisitRoutes} implementations when the handler is built.
 *
 * @param clusters  the content clusters and document types
 * @param config    the {@code <document-api>} options (limits, default timeout, unknown-field policy)
 * @param clock     wall time for deadlines and queue ages
 * @param scheduler runs deadline tasks
 * @param admission decides whether operations may start; visit starts check it too
 * @param metrics   the handler's counters
 * @param bodies    the memory request bodies may hold at once, across requests
 * @param visits    the memory visits may hold at once for the batches they read and render, across requests
 */
public record DocumentApiContext(ContentClusters clusters, DocumentApiConfig config, Clock clock,
                                 TaskScheduler scheduler, Admission admission, DocumentApiMetrics metrics,
                                 MemoryBudget bodies, MemoryBudget visits) {

    public DocumentApiContext {
        Objects.requireNonNull(clusters, "clusters");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(bodies, "bodies");
        Objects.requireNonNull(visits, "visits");
    }

}

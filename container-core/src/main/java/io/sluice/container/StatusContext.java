package io.sluice.container;

import java.time.Clock;
import java.util.List;
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

    public StatusContext {
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(statistics, "statistics");
        Objects.requireNonNull(application, "application");
        serverIds = List.copyOf(serverIds);
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(metrics, "metrics");
    }

}

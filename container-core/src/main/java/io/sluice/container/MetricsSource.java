package io.sluice.container;

import java.util.List;

/** Something that reports metrics at {@code /state/v1/metrics}; read on every request, so cheap and thread-safe. */
@FunctionalInterface
public interface MetricsSource {

    /** The current values, totals since start. */
    List<Metric> metrics();

}

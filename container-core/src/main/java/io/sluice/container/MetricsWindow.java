package io.sluice.container;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns counters (totals since start) into what Vespa's metrics APIs report for a counter: how much it grew over the
 * last complete period, and that per second. A new period starts when one is read at least {@code period} after the
 * previous one started, so a rarely read server reports over a longer period; until the first period completes, the
 * figures cover the time since start. Thread-safe.
 */
public final class MetricsWindow {

    /** Vespa's snapshot period for the metrics of a container. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(60);

    /** How much a counter grew over a period, and the period's length. */
    public record Growth(long count, double seconds) {
        public double rate() {
            return count / seconds;
        }
    }

    private record Totals(Instant at, Map<String, Long> counts) { }

    private final Clock clock;
    private final Duration period;
    private Totals older;
    private Totals newer;

    public MetricsWindow(Clock clock, Duration period) {
        this.clock = clock;
        this.period = period;
        this.older = this.newer = new Totals(clock.instant(), Map.of());
    }

    /** The growth of each counter among {@code metrics}, keyed by {@link #key(Metric)}. */
    public synchronized Map<String, Growth> growth(List<Metric> metrics) {
        Instant now = clock.instant();
        Map<String, Long> current = new HashMap<>();
        for (Metric metric : metrics)
            if (metric.isCounter())
                current.merge(key(metric), metric.values().get("count").longValue(), Long::sum);
        if (!now.isBefore(newer.at.plus(period))) {
            older = newer;
            newer = new Totals(now, current);
        }
        boolean complete = newer != older;
        Totals from = older;
        Map<String, Long> to = complete ? newer.counts : current;
        double seconds = Math.max(0.001, Duration.between(from.at, complete ? newer.at : now).toMillis() / 1000.0);
        Map<String, Growth> growth = new HashMap<>();
        to.forEach((key, count) -> growth.put(key, new Growth(Math.max(0, count - from.counts.getOrDefault(key, 0L)), seconds)));
        return growth;
    }

    /** A metric's identity: its name and its dimensions. */
    public static String key(Metric metric) {
        return metric.name() + new TreeMap<>(metric.dimensions());
    }

}

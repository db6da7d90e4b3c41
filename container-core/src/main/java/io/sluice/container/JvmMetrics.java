package io.sluice.container;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JVM's figures under Vespa's container metric names: heap ({@code mem.heap.total}, {@code .free}, {@code .used}),
 * direct buffers ({@code mem.direct.total}, {@code .used}, {@code .count}), garbage collections by collector
 * ({@code jdisc.gc.count}, {@code jdisc.gc.ms}, totals since start, dimension {@code gcName}) and open file
 * descriptors ({@code jdisc.open_file_descriptors}). All are gauges read when reported, in bytes where sizes.
 */
public final class JvmMetrics implements MetricsSource {

    @Override
    public List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        Runtime runtime = Runtime.getRuntime();
        long total = runtime.totalMemory(), free = runtime.freeMemory();
        metrics.add(Metric.gauge("mem.heap.total", Map.of(), total));
        metrics.add(Metric.gauge("mem.heap.free", Map.of(), free));
        metrics.add(Metric.gauge("mem.heap.used", Map.of(), total - free));
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
            if (pool.getName().equals("direct")) {
                metrics.add(Metric.gauge("mem.direct.total", Map.of(), pool.getTotalCapacity()));
                metrics.add(Metric.gauge("mem.direct.used", Map.of(), pool.getMemoryUsed()));
                metrics.add(Metric.gauge("mem.direct.count", Map.of(), pool.getCount()));
            }
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            Map<String, String> dimensions = Map.of("gcName", collector.getName());
            metrics.add(Metric.gauge("jdisc.gc.count", dimensions, Math.max(0, collector.getCollectionCount())));
            metrics.add(Metric.gauge("jdisc.gc.ms", dimensions, Math.max(0, collector.getCollectionTime())));
        }
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean)
            metrics.add(Metric.gauge("jdisc.open_file_descriptors", Map.of(),
                                     ((com.sun.management.UnixOperatingSystemMXBean) os).getOpenFileDescriptorCount()));
        return metrics;
    }

}

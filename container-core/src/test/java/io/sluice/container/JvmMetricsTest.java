package io.sluice.container;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmMetricsTest {

    @Test
    void reportsHeapAndCollectorsUnderVespaNames() {
        List<Metric> metrics = new JvmMetrics().metrics();
        Set<String> names = metrics.stream().map(Metric::name).collect(Collectors.toSet());
        assertTrue(names.containsAll(Set.of("mem.heap.total", "mem.heap.free", "mem.heap.used", "jdisc.gc.count", "jdisc.gc.ms")),
                   names.toString());
        assertTrue(metrics.stream().filter(metric -> metric.name().equals("jdisc.gc.count"))
                          .allMatch(metric -> metric.dimensions().containsKey("gcName")));
        double used = metrics.stream().filter(metric -> metric.name().equals("mem.heap.used"))
                             .findFirst().orElseThrow().values().get("last").doubleValue();
        assertTrue(used > 0);
    }

}

package io.sluice.container.document;

import io.sluice.container.Metric;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DocumentApiMetricsTest {

    private static Map<String, Long> vespaCounters(DocumentApiMetrics metrics) {
        Map<String, Long> counters = new HashMap<>();
        for (Metric metric : metrics.metrics())
            if (metric.isCounter() && metric.dimensions().isEmpty())
                counters.put(metric.name(), metric.values().get("count").longValue());
        return counters;
    }

    @Test
    void writeOutcomes_areCountedUnderVespasNames() {
        var metrics = new DocumentApiMetrics();
        metrics.operation("put", "succeeded");
        metrics.operation("put", "succeeded");
        metrics.operation("update", "condition_not_met");
        metrics.operation("update", "not_found");
        metrics.operation("remove", "timeout");
        metrics.operation("remove", "insufficient_storage");
        metrics.operation("put", "overload");
        metrics.operation("put", "invalid");
        metrics.operation("get", "succeeded");  // reads are not feed operations
        metrics.operation("put", "dry_run");    // nor are dry runs
        Map<String, Long> counters = vespaCounters(metrics);
        assertEquals(8L, counters.get("httpapi_num_operations"));
        assertEquals(4L, counters.get("httpapi_num_puts"));
        assertEquals(2L, counters.get("httpapi_num_updates"));
        assertEquals(2L, counters.get("httpapi_num_removes"));
        assertEquals(2L, counters.get("httpapi_succeeded"));
        assertEquals(1L, counters.get("httpapi_condition_not_met"));
        assertEquals(1L, counters.get("httpapi_not_found"));
        assertEquals(1L, counters.get("httpapi_parse_error"));
        assertEquals(3L, counters.get("httpapi_failed"));
        assertEquals(1L, counters.get("httpapi_failed_timeout"));
        assertEquals(1L, counters.get("httpapi_failed_insufficient_storage"));
        assertEquals(1L, counters.get("httpapi_failed_unknown"));
    }

    @Test
    void vespaCounters_arePresentBeforeAnyOperation() {
        Map<String, Long> counters = vespaCounters(new DocumentApiMetrics());
        assertEquals(0L, counters.get("httpapi_succeeded"));
        assertEquals(0L, counters.get("httpapi_failed"));
    }

}

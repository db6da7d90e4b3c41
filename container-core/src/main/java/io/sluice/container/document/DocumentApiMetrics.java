package io.sluice.container.document;

import io.sluice.container.LatencyHistogram;
import io.sluice.container.Metric;
import io.sluice.container.MetricsSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Counters of the {@code /document/v1} handler: requests by method, responses by status class, latency, operations by
 * type and outcome, visits by kind, body bytes in and out, and the queue's depth. Lock-free; thread-safe.
 *
 * <p>Besides Sluice's own names ({@code httpapi_operations} by operation and outcome, ...), the write operations are
 * also reported under Vespa's names, so Vespa's dashboards and alerts work: {@code httpapi_num_operations},
 * {@code httpapi_num_puts}, {@code httpapi_num_updates}, {@code httpapi_num_removes}, {@code httpapi_succeeded},
 * {@code httpapi_failed} (with {@code httpapi_failed_timeout}, {@code httpapi_failed_insufficient_storage} and
 * {@code httpapi_failed_unknown} for overload, unavailable and internal errors), {@code httpapi_parse_error},
 * {@code httpapi_condition_not_met} and {@code httpapi_not_found}. Gets and dry runs are not among them, as in Vespa.
 */
public final class DocumentApiMetrics implements MetricsSource {

    private final ConcurrentMap<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final LongAdder[] responses = new LongAdder[10]; // by status / 100: no key is made per response
    private final ConcurrentMap<String, ConcurrentMap<String, LongAdder>> operations = new ConcurrentHashMap<>(); // type, outcome
    private final ConcurrentMap<String, LongAdder> visits = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, LongAdder> visitedDocuments = new ConcurrentHashMap<>();
    private final LatencyHistogram latency = new LatencyHistogram();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private volatile Supplier<List<Metric>> gauges = List::of;

    public DocumentApiMetrics() {
        Arrays.setAll(responses, __ -> new LongAdder());
    }

    /** Counts a request with {@code method}. */
    public void request(String method) {
        requests.computeIfAbsent(method, __ -> new LongAdder()).increment();
    }

    /** Counts a response with {@code status} that took {@code latencyNanos} from arrival to being decided. */
    public void response(int status, long latencyNanos) {
        responses[Math.floorMod(status / 100, responses.length)].increment();
        latency.record(latencyNanos);
    }

    /** Counts an operation ({@code put}, {@code get}, {@code update}, {@code remove}) and how it ended. */
    public void operation(String type, String outcome) {
        operations.computeIfAbsent(type, __ -> new ConcurrentHashMap<>())
                  .computeIfAbsent(outcome, __ -> new LongAdder()).increment();
    }

    /** Counts a started visit of {@code kind} ({@code visit}, {@code copy}, {@code update-where}, {@code delete-where}). */
    public void visit(String kind) {
        visits.computeIfAbsent(kind, __ -> new LongAdder()).increment();
    }

    /** Counts {@code documents} returned or processed by a visit of {@code kind}. */
    public void visitedDocuments(String kind, long documents) {
        visitedDocuments.computeIfAbsent(kind, __ -> new LongAdder()).add(documents);
    }

    /** The number of documents visits of {@code kind} returned or processed, for tests and logs. */
    public long visitedDocuments(String kind) {
        LongAdder adder = visitedDocuments.get(kind);
        return adder == null ? 0 : adder.sum();
    }

    public void bytesReceived(long bytes) {
        bytesReceived.add(bytes);
    }

    public void bytesSent(long bytes) {
        bytesSent.add(bytes);
    }

    /** Adds gauges read on every report, e.g. the queue's depth and the content clusters' store figures. */
    public void gauges(Supplier<List<Metric>> gauges) {
        this.gauges = gauges;
    }

    /** The number of operations of {@code type} that ended with {@code outcome}, for tests and logs. */
    public long operations(String type, String outcome) {
        Map<String, LongAdder> outcomes = operations.get(type);
        LongAdder adder = outcomes == null ? null : outcomes.get(outcome);
        return adder == null ? 0 : adder.sum();
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        requests.forEach((method, count) -> metrics.add(Metric.counter("httpapi_requests", Map.of("httpMethod", method), count.sum())));
        for (int statusClass = 0; statusClass < responses.length; statusClass++) {
            long count = responses[statusClass].sum();
            if (count > 0)
                metrics.add(Metric.counter("httpapi_responses", Map.of("statusClass", statusClass + "xx"), count));
        }
        operations.forEach((type, outcomes) -> outcomes.forEach(
                (outcome, count) -> metrics.add(Metric.counter("httpapi_operations", Map.of("operation", type, "outcome", outcome),
                                                               count.sum()))));
        visits.forEach((kind, count) -> metrics.add(Metric.counter("httpapi_visits", Map.of("operation", kind), count.sum())));
        visitedDocuments.forEach((kind, count) -> metrics.add(Metric.counter("httpapi_visited_documents",
                                                                            Map.of("operation", kind), count.sum())));
        metrics.addAll(vespaOperationMetrics());
        metrics.add(Metric.counter("httpapi_bytes_received", Map.of(), bytesReceived.sum()));
        metrics.add(Metric.counter("httpapi_bytes_sent", Map.of(), bytesSent.sum()));
        metrics.add(latency());
        metrics.addAll(gauges.get());
        return metrics;
    }

    /** The write operations, counted under Vespa's metric names. */
    private List<Metric> vespaOperationMetrics() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String name : List.of("httpapi_num_operations", "httpapi_num_puts", "httpapi_num_updates", "httpapi_num_removes",
                                   "httpapi_succeeded", "httpapi_failed", "httpapi_failed_timeout",
                                   "httpapi_failed_insufficient_storage", "httpapi_failed_unknown", "httpapi_parse_error",
                                   "httpapi_condition_not_met", "httpapi_not_found"))
            counts.put(name, 0L);
        operations.forEach((type, outcomes) -> outcomes.forEach((outcome, adder) -> {
            if (!(type.equals("put") || type.equals("update") || type.equals("remove")) || outcome.equals("dry_run"))
                return;
            long n = adder.sum();
            counts.merge("httpapi_num_operations", n, Long::sum);
            counts.merge("httpapi_num_" + type + "s", n, Long::sum);
            switch (outcome) {
                case "succeeded": counts.merge("httpapi_succeeded", n, Long::sum); break;
                case "not_found": counts.merge("httpapi_not_found", n, Long::sum); break;
                case "condition_not_met": counts.merge("httpapi_condition_not_met", n, Long::sum); break;
                case "invalid": counts.merge("httpapi_parse_error", n, Long::sum); break;
                default:
                    counts.merge("httpapi_failed", n, Long::sum);
                    counts.merge(outcome.equals("timeout") ? "httpapi_failed_timeout"
                                 : outcome.equals("insufficient_storage") ? "httpapi_failed_insufficient_storage"
                                 : "httpapi_failed_unknown", n, Long::sum);
            }
        }));
        List<Metric> metrics = new ArrayList<>();
        counts.forEach((name, count) -> metrics.add(Metric.counter(name, Map.of(), count)));
        return metrics;
    }

    private Metric latency() {
        long count = latency.count();
        double sumMillis = latency.sumNanos() / 1e6;
        var values = new LinkedHashMap<String, Number>();
        values.put("average", count == 0 ? 0.0 : sumMillis / count);
        values.put("sum", sumMillis);
        values.put("count", count);
        values.put("max", latency.maxNanos() / 1e6);
        values.put("50percentile", latency.percentileNanos(0.50) / 1e6);
        values.put("95percentile", latency.percentileNanos(0.95) / 1e6);
        values.put("99percentile", latency.percentileNanos(0.99) / 1e6);
        return new Metric("httpapi_latency", Map.of(), values);
    }

}

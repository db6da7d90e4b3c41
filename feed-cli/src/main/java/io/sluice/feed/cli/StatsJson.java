package io.sluice.feed.cli;

import io.sluice.feed.OperationStats;

import java.util.Locale;
import java.util.Map;

/**
 * The official client's stats JSON: the same keys in the same order, pretty-printed with {@code " : "} separators and
 * no trailing newline; latency percentiles follow the max as extra keys.
 */
final class StatsJson {

    private StatsJson() { }

    static String format(OperationStats stats, double seconds, long ok, long errors) {
        StringBuilder json = new StringBuilder(1024).append("{\n");
        double nanos = Math.max(seconds * 1e9, 1);
        field(json, "feeder.seconds", number(seconds));
        field(json, "feeder.ok.count", Long.toString(ok));
        field(json, "feeder.ok.rate", number(ok / Math.max(seconds, 1e-9)));
        field(json, "feeder.error.count", Long.toString(errors));
        field(json, "feeder.inflight.count", Long.toString(stats.inflight()));
        field(json, "http.request.count", Long.toString(stats.requests()));
        field(json, "http.request.bytes", Long.toString(stats.bytesSent()));
        field(json, "http.request.MBps", number(stats.bytesSent() * 1e3 / nanos));
        field(json, "http.exception.count", Long.toString(stats.exceptions()));
        field(json, "http.response.count", Long.toString(stats.responses()));
        field(json, "http.response.bytes", Long.toString(stats.bytesReceived()));
        field(json, "http.response.MBps", number(stats.bytesReceived() * 1e3 / nanos));
        field(json, "http.response.error.count", Long.toString(stats.errorResponses()));
        OperationStats.Latency latency = stats.latency();
        field(json, "http.response.latency.millis.min", number(latency.min()));
        field(json, "http.response.latency.millis.avg", number(latency.avg()));
        field(json, "http.response.latency.millis.max", number(latency.max()));
        field(json, "http.response.latency.millis.p50", number(latency.p50()));
        field(json, "http.response.latency.millis.p90", number(latency.p90()));
        field(json, "http.response.latency.millis.p99", number(latency.p99()));
        field(json, "http.response.latency.millis.p999", number(latency.p999()));
        json.append("  \"http.response.code.counts\" : {");
        String separator = "\n";
        for (Map.Entry<Integer, Long> entry : stats.responsesByCode().entrySet()) {
            json.append(separator).append("    \"").append(entry.getKey()).append("\" : ").append(entry.getValue());
            separator = ",\n";
        }
        json.append(stats.responsesByCode().isEmpty() ? " }\n" : "\n  }\n");
        return json.append('}').toString();
    }

    private static void field(StringBuilder json, String name, String value) {
        json.append("  \"").append(name).append("\" : ").append(value).append(",\n");
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

}

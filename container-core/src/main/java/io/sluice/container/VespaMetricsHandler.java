package io.sluice.container;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Vespa's node metrics APIs for this container: {@code /metrics/v2/values} (JSON) and {@code /prometheus/v1/values}
 * (Prometheus text), with Vespa's metric names and its value suffixes. Vespa's metrics proxy collects these from every
 * service of a node; here the container is the node's only service ({@code vespa.container}).
 *
 * <p>A counter is reported as {@code name.count}, its growth over the last period, and {@code name.rate}, that per
 * second ({@link MetricsWindow}); any other metric as {@code name.<value>} ({@code last}, {@code max}, {@code sum},
 * {@code count}, {@code average}, percentiles), where latencies are since start.
 */
public final class VespaMetricsHandler extends ReadOnlyHandler {

    static final String SERVICE = "vespa.container";

    private final StatusContext context;
    private final MetricsWindow window;
    private volatile String hostname;
    private final Map<String, String> serviceDimensions;

    public VespaMetricsHandler(StatusContext context, MetricsWindow window, String clusterName) {
        this.context = context;
        this.window = window;
        var dimensions = new LinkedHashMap<String, String>();
        dimensions.put("serviceId", "container");
        dimensions.put("clustertype", "container");
        dimensions.put("clustername", clusterName);
        dimensions.put("applicationId", context.application().name());
        this.serviceDimensions = Map.copyOf(dimensions);
    }

    @Override
    protected boolean get(Request request, Response response, Callback callback) {
        String path = Request.getPathInContext(request);
        if (path.equals("/metrics/v2/values")) {
            JsonResponses.send(response, callback, HttpStatus.OK_200, v2(values()));
            return true;
        }
        if (path.equals("/prometheus/v1/values")) {
            byte[] text = prometheus(values()).getBytes(StandardCharsets.UTF_8);
            response.setStatus(HttpStatus.OK_200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
            response.write(true, ByteBuffer.wrap(text), callback);
            return true;
        }
        return false;
    }

    /** One metric set as Vespa reports it: suffixed value names, and the metric's dimensions with the service's. */
    record Values(Map<String, Number> values, Map<String, String> dimensions) { }

    /** Every metric, with counters turned into their growth over the last period. */
    List<Values> values() {
        List<Metric> metrics = context.allMetrics();
        Map<String, MetricsWindow.Growth> growth = window.growth(metrics);
        Map<String, Values> byIdentity = new LinkedHashMap<>();
        for (Metric metric : metrics) {
            var dimensions = new TreeMap<>(serviceDimensions);
            dimensions.putAll(metric.dimensions());
            Values set = byIdentity.computeIfAbsent(new TreeMap<>(metric.dimensions()).toString(),
                                                    __ -> new Values(new LinkedHashMap<>(), dimensions));
            if (metric.isCounter()) {
                MetricsWindow.Growth grown = growth.get(MetricsWindow.key(metric));
                set.values().put(metric.name() + ".count", grown.count());
                set.values().put(metric.name() + ".rate", grown.rate());
            } else {
                metric.values().forEach((name, value) -> set.values().put(metric.name() + "." + name, value));
                Number sum = metric.values().get("sum"), count = metric.values().get("count");
                if (!metric.values().containsKey("average") && sum != null && count != null)
                    set.values().put(metric.name() + ".average", count.longValue() == 0 ? 0.0
                                                                                       : sum.doubleValue() / count.longValue());
            }
        }
        return List.copyOf(byIdentity.values());
    }

    private byte[] v2(List<Values> sets) {
        long seconds = context.clock().millis() / 1000;
        String hostname = hostname();
        return Json.write(json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("nodes");
            json.writeStartObject();
            json.writeStringField("hostname", hostname);
            json.writeStringField("role", context.application().name() + "/container/" + hostname);
            json.writeObjectFieldStart("node");
            json.writeNumberField("timestamp", seconds);
            json.writeArrayFieldStart("metrics");
            json.writeEndArray();
            json.writeEndObject();
            json.writeArrayFieldStart("services");
            json.writeStartObject();
            json.writeStringField("name", SERVICE);
            json.writeNumberField("timestamp", seconds);
            json.writeObjectFieldStart("status");
            json.writeStringField("code", context.health().status().code());
            json.writeStringField("description", "Data collected successfully");
            json.writeEndObject();
            json.writeArrayFieldStart("metrics");
            for (Values set : sets) {
                json.writeStartObject();
                json.writeObjectFieldStart("values");
                for (Map.Entry<String, Number> value : set.values().entrySet())
                    if (value.getValue() instanceof Double || value.getValue() instanceof Float)
                        json.writeNumberField(value.getKey(), value.getValue().doubleValue());
                    else
                        json.writeNumberField(value.getKey(), value.getValue().longValue());
                json.writeEndObject();
                json.writeObjectFieldStart("dimensions");
                for (Map.Entry<String, String> dimension : set.dimensions().entrySet())
                    json.writeStringField(dimension.getKey(), dimension.getValue());
                json.writeEndObject();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
            json.writeEndArray();
            json.writeEndObject();
            json.writeEndArray();
            json.writeEndObject();
        }, false);
    }

    /** Vespa's Prometheus text: {@code name_suffix{dimensions,vespa_service="vespa_container",} value timestamp}. */
    private String prometheus(List<Values> sets) {
        long millis = context.clock().millis();
        Map<String, StringBuilder> byName = new TreeMap<>();
        for (Values set : sets) {
            StringBuilder labels = new StringBuilder("{");
            set.dimensions().forEach((name, value) -> labels.append(sanitize(name)).append("=\"").append(escape(value)).append("\","));
            labels.append("vespa_service=\"").append(sanitize(SERVICE)).append("\",}");
            set.values().forEach((name, value) -> byName.computeIfAbsent(sanitize(name), __ -> new StringBuilder())
                                                        .append(sanitize(name)).append(labels).append(' ')
                                                        .append(value).append(' ').append(millis).append('\n'));
        }
        StringBuilder text = new StringBuilder();
        byName.forEach((name, lines) -> text.append("# HELP ").append(name).append('\n')
                                            .append("# TYPE ").append(name).append(" untyped\n").append(lines));
        return text.toString();
    }

    private static String sanitize(String name) {
        return name.replaceAll("[^A-Za-z0-9_]", "_");
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /**
     * The host's name: {@code HOSTNAME} from the environment, else what the resolver says, looked up on the first
     * request rather than at start-up (a lookup can take seconds where DNS is misconfigured).
     */
    private String hostname() {
        String known = hostname;
        if (known != null)
            return known;
        String name = System.getenv("HOSTNAME");
        if (name == null || name.isBlank()) {
            try {
                name = InetAddress.getLocalHost().getHostName();
            }
            catch (UnknownHostException e) {
                name = "localhost";
            }
        }
        return hostname = name;
    }

}

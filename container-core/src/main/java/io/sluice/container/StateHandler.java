package io.sluice.container;

import com.fasterxml.jackson.core.JsonGenerator;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import org.eclipse.jetty.http.HttpHeader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Vespa's {@code /state/v1/} API: the resource list, {@code health}, {@code metrics}, {@code version} and
 * {@code config}. Health is {@code {"code":"down","message":...}} while a watched part has failed
 * ({@link ServiceHealth#watch}). Health and metrics cover all requests since start; JSON is pretty-printed as in Vespa.
 */
public class StateHandler extends ReadOnlyHandler {

    private static final String ROOT = "/state/v1/";
    private static final String[] RESOURCES = { "metrics", "config", "health", "version" };

    private final StatusContext context;

    public StateHandler(StatusContext context) {
        this.context = context;
    }

    @Override
    protected boolean get(Request request, Response response, Callback callback) {
        String path = Request.getPathInContext(request);
        byte[] body;
        switch (path) {
            case ROOT: case "/state/v1": body = resources(request); break;
            case ROOT + "health": body = health(); break;
            case ROOT + "metrics":
                if ("prometheus".equals(Request.extractQueryParameters(request).getValue("format"))) {
                    byte[] text = prometheus().getBytes(StandardCharsets.UTF_8);
                    response.setStatus(HttpStatus.OK_200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4");
                    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
                    response.write(true, ByteBuffer.wrap(text), callback);
                    return true;
                }
                body = metrics();
                break;
            case ROOT + "version": body = version(); break;
            case ROOT + "config": body = config(); break;
            default: return false;
        }
        JsonResponses.send(response, callback, HttpStatus.OK_200, body);
        return true;
    }

    private static byte[] resources(Request request) {
        String base = request.getHttpURI().getScheme() + "://" + Request.getServerName(request) + ":"
                      + Request.getServerPort(request) + ROOT;
        return Json.write(json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("resources");
            for (String resource : RESOURCES) {
                json.writeStartObject();
                json.writeStringField("url", base + resource);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }, true);
    }

    private byte[] health() {
        RequestStatistics.Snapshot snapshot = context.statistics().snapshot();
        ServiceHealth health = context.health();
        ServiceHealth.Status status = health.status();
        Optional<String> message = health.message();
        return Json.write(json -> {
            json.writeStartObject();
            json.writeNumberField("time", context.clock().millis());
            json.writeObjectFieldStart("status");
            json.writeStringField("code", status.code());
            if (message.isPresent())
                json.writeStringField("message", message.get());
            json.writeEndObject();
            writeMetrics(json, snapshot, "requestsPerSecond", "latencySeconds", 1e-9, false);
            json.writeEndObject();
        }, true);
    }

    private byte[] metrics() {
        RequestStatistics.Snapshot snapshot = context.statistics().snapshot();
        return Json.write(json -> {
            json.writeStartObject();
            json.writeNumberField("time", context.clock().millis());
            json.writeObjectFieldStart("status");
            json.writeStringField("code", context.health().status().code());
            json.writeEndObject();
            writeMetrics(json, snapshot, "serverNumRequests", "jdisc.http.latency", 1e-6, true);
            json.writeEndObject();
        }, true);
    }

    /** Vespa's Prometheus rendering: {@code name_value{dim="v",} number timestamp}, names made of [A-Za-z0-9_]. */
    private String prometheus() {
        long now = context.clock().millis();
        List<Metric> metrics = context.allMetrics();
        StringBuilder text = new StringBuilder("# NOTE: THIS API IS NOT INTENDED FOR PUBLIC USE\n");
        for (Metric metric : metrics) {
            StringBuilder dimensions = new StringBuilder("{");
            new TreeMap<>(metric.dimensions()).forEach((name, value) ->
                    dimensions.append(sanitize(name)).append("=\"").append(value.replace("\\", "\\\\").replace("\"", "\\\""))
                              .append("\","));
            dimensions.append('}');
            metric.values().forEach((name, value) -> text.append(sanitize(metric.name() + "_" + name)).append(dimensions)
                                                         .append(' ').append(value).append(' ').append(now).append('\n'));
        }
        return text.toString();
    }

    private static String sanitize(String name) {
        return name.replaceAll("[^A-Za-z0-9_]", "_");
    }

    private void writeMetrics(JsonGenerator json, RequestStatistics.Snapshot snapshot, String countName,
                                     String latencyName, double latencyUnit, boolean dimensions) throws IOException {
        json.writeObjectFieldStart("metrics");
        json.writeObjectFieldStart("snapshot");
        json.writeNumberField("from", snapshot.from().toEpochMilli() / 1000.0);
        json.writeNumberField("to", snapshot.to().toEpochMilli() / 1000.0);
        json.writeEndObject();
        json.writeArrayFieldStart("values");

        json.writeStartObject();
        json.writeStringField("name", countName);
        json.writeObjectFieldStart("values");
        json.writeNumberField("count", snapshot.count());
        json.writeNumberField("rate", snapshot.rate());
        json.writeEndObject();
        if (dimensions) writeNoDimensions(json);
        json.writeEndObject();

        json.writeStartObject();
        json.writeStringField("name", latencyName);
        json.writeObjectFieldStart("values");
        long count = snapshot.count();
        json.writeNumberField("average", count == 0 ? 0 : snapshot.latencySumNanos() * latencyUnit / count);
        json.writeNumberField("sum", snapshot.latencySumNanos() * latencyUnit);
        json.writeNumberField("count", count);
        json.writeNumberField("last", snapshot.latencyLastNanos() * latencyUnit);
        json.writeNumberField("max", snapshot.latencyMaxNanos() * latencyUnit);
        json.writeNumberField("min", snapshot.latencyMinNanos() * latencyUnit);
        json.writeNumberField("rate", snapshot.rate());
        json.writeEndObject();
        if (dimensions) writeNoDimensions(json);
        json.writeEndObject();

        if (dimensions)
            for (Metric metric : context.extraMetrics()) {
                json.writeStartObject();
                json.writeStringField("name", metric.name());
                json.writeObjectFieldStart("values");
                for (Map.Entry<String, Number> value : metric.values().entrySet())
                    writeNumber(json, value.getKey(), value.getValue());
                json.writeEndObject();
                json.writeObjectFieldStart("dimensions");
                for (Map.Entry<String, String> dimension : new TreeMap<>(metric.dimensions()).entrySet())
                    json.writeStringField(dimension.getKey(), dimension.getValue());
                json.writeEndObject();
                json.writeEndObject();
            }

        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeNumber(JsonGenerator json, String name, Number value) throws IOException {
        if (value instanceof Double || value instanceof Float)
            json.writeNumberField(name, value.doubleValue());
        else
            json.writeNumberField(name, value.longValue());
    }

    private static void writeNoDimensions(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("dimensions");
        json.writeEndObject();
    }

    private static byte[] version() {
        return Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("version", SluiceVersion.version());
            json.writeEndObject();
        }, true);
    }

    private byte[] config() {
        long generation = context.application().generation();
        return Json.write(json -> {
            json.writeStartObject();
            json.writeObjectFieldStart("config");
            json.writeNumberField("generation", generation);
            json.writeBooleanField("applyOnRestart", false);
            json.writeObjectFieldStart("container");
            json.writeNumberField("generation", generation);
            json.writeEndObject();
            json.writeNumberField("wantedGeneration", generation);
            json.writeEndObject();
            json.writeEndObject();
        }, true);
    }

}

package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.container.Json;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The access log: one JSON object per request and line, with {@code time} (ISO-8601, when the request began),
 * {@code method}, {@code uri} (path and query), {@code protocol}, {@code status}, {@code bytes} (response content),
 * {@code duration} (milliseconds, fractional) and {@code peer} (address:port). Lines are handed to an asynchronous
 * writer with a bounded queue, so logging never blocks a request.
 */
public final class JsonRequestLog extends ContainerLifeCycle implements RequestLog {

    private static final Logger log = LoggerFactory.getLogger(JsonRequestLog.class);

    /** Lines waiting for the writer thread, at most: ~4 MB of typical lines, absorbing bursts of overload. */
    static final int QUEUE_CAPACITY = 16 * 1024;

    private final RequestLog.Writer writer;
    private final LongSupplier nanoTime;

    public JsonRequestLog(RequestLog.Writer writer, LongSupplier nanoTime) {
        this.writer = writer;
        this.nanoTime = nanoTime;
        addBean(writer);
    }

    /** The log for {@code config}: to its file, or to standard output when it has none. */
    public static JsonRequestLog of(AccessLogConfig config) {
        RequestLog.Writer writer = config.file()
                                         .map(file -> AsyncLineWriter.toFile(file, QUEUE_CAPACITY))
                                         .orElseGet(() -> new AsyncLineWriter(System.out, QUEUE_CAPACITY));
        return new JsonRequestLog(writer, System::nanoTime);
    }

    @Override
    public void log(Request request, Response response) {
        double durationMillis = Math.max(0, nanoTime.getAsLong() - request.getBeginNanoTime()) / 1e6;
        byte[] line = Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("time", Instant.ofEpochMilli(Request.getTimeStamp(request)).toString());
            json.writeStringField("method", request.getMethod());
            json.writeStringField("uri", request.getHttpURI().getPathQuery());
            json.writeStringField("protocol", request.getConnectionMetaData().getProtocol());
            json.writeNumberField("status", response.getStatus());
            json.writeNumberField("bytes", Response.getContentBytesWritten(response));
            json.writeNumberField("duration", Math.round(durationMillis * 1000) / 1000.0);
            json.writeStringField("peer", peer(request.getConnectionMetaData().getRemoteSocketAddress()));
            json.writeEndObject();
        });
        try {
            writer.write(new String(line, StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            log.warn("Writing the access log failed: {}", e.toString());
        }
    }

    private static String peer(SocketAddress address) {
        if (address instanceof InetSocketAddress) {
            var inet = (InetSocketAddress) address;
            String host = inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
            return host + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

}

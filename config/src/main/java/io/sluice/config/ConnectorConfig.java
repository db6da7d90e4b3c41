package io.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Connector and HTTP/2 settings, defaulting to Vespa's container (see {@link #defaults()}).
 *
 * @param idleTimeout              connection idle timeout
 * @param streamIdleTimeout        HTTP/2 stream idle timeout
 * @param maxConcurrentStreams     HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS
 * @param initialSessionRecvWindow HTTP/2 connection receive window, bytes
 * @param initialStreamRecvWindow  HTTP/2 stream receive window, bytes
 * @param maxRateControlEvents     HTTP/2 rate control events per second before the session is closed
 * @param requestHeaderSize        largest request header block, bytes
 * @param responseHeaderSize       largest response header block, bytes
 * @param outputBufferSize         response output buffer, bytes
 */
public record ConnectorConfig(Duration idleTimeout, Duration streamIdleTimeout, int maxConcurrentStreams,
                              int initialSessionRecvWindow, int initialStreamRecvWindow, int maxRateControlEvents,
                              int requestHeaderSize, int responseHeaderSize, int outputBufferSize) {

    /** The HTTP/2 default connection window, which a receiver cannot shrink. */
    public static final int MIN_SESSION_RECV_WINDOW = 65_535;

    public ConnectorConfig {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(streamIdleTimeout, "streamIdleTimeout");
        positive("idleTimeout", idleTimeout.toMillis());
        positive("streamIdleTimeout", streamIdleTimeout.toMillis());
        positive("maxConcurrentStreams", maxConcurrentStreams);
        positive("initialSessionRecvWindow", initialSessionRecvWindow);
        positive("initialStreamRecvWindow", initialStreamRecvWindow);
        positive("maxRateControlEvents", maxRateControlEvents);
        positive("requestHeaderSize", requestHeaderSize);
        positive("responseHeaderSize", responseHeaderSize);
        positive("outputBufferSize", outputBufferSize);
        if (initialSessionRecvWindow < MIN_SESSION_RECV_WINDOW) // a connection window can only grow (RFC 9113 6.9.2)
            throw new ConfigException("initialSessionRecvWindow must be at least " + MIN_SESSION_RECV_WINDOW
                                      + " (the HTTP/2 initial window), but was " + initialSessionRecvWindow);
    }

    /** Vespa's container defaults (jdisc.http.connector.def). */
    public static ConnectorConfig defaults() {
        return new ConnectorConfig(Duration.ofSeconds(180), Duration.ofSeconds(600), 512,
                                   1 << 24, 1 << 20, 50_000,
                                   64 * 1024, 64 * 1024, 64 * 1024);
    }

    private static void positive(String name, long value) {
        if (value <= 0)
            throw new ConfigException(name + " must be positive, but was " + value);
    }

}

package io.sluice.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads {@code <config name="jdisc.http.connector">} overrides of a {@code <server>} into a {@link ConnectorConfig},
 * starting from {@link ConnectorConfig#defaults()}. Field names and units follow Vespa's {@code jdisc.http.connector.def}
 * (timeouts in seconds, sizes in bytes); the HTTP/2 window sizes are a Sluice addition under {@code <http2>}.
 */
final class ConnectorReader {

    static final String CONFIG_NAME = "jdisc.http.connector";

    /** What {@code maxRateControlEvents = 0} means in Vespa: Jetty's own default. */
    static final int JETTY_DEFAULT_RATE_CONTROL_EVENTS = 128;

    /** Fields of Vespa's connector def that Sluice accepts and does not use. */
    private static final Set<String> NO_EFFECT = Set.of(
            "name", "headerCacheSize", "acceptQueueSize", "maxContentSize", "maxContentSizeErrorMessageTemplate",
            "reuseAddress", "shutdownIdleTimeout", "tcpKeepAliveEnabled", "tcpNoDelay", "throttling",
            "implicitTlsEnabled", "ssl", "tlsClientAuthEnforcer", "healthCheckProxy", "proxyProtocol",
            "maxRequestsPerConnection", "maxConnectionLife", "http2Enabled", "serverName", "accessLog", "compliance");

    private final Diagnostics diagnostics;

    private Duration idleTimeout;
    private Duration streamIdleTimeout;
    private int maxConcurrentStreams;
    private int initialSessionRecvWindow;
    private int initialStreamRecvWindow;
    private int maxRateControlEvents;
    private int requestHeaderSize;
    private int responseHeaderSize;
    private int outputBufferSize;

    private ConnectorReader(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
        ConnectorConfig defaults = ConnectorConfig.defaults();
        idleTimeout = defaults.idleTimeout();
        streamIdleTimeout = defaults.streamIdleTimeout();
        maxConcurrentStreams = defaults.maxConcurrentStreams();
        initialSessionRecvWindow = defaults.initialSessionRecvWindow();
        initialStreamRecvWindow = defaults.initialStreamRecvWindow();
        maxRateControlEvents = defaults.maxRateControlEvents();
        requestHeaderSize = defaults.requestHeaderSize();
        responseHeaderSize = defaults.responseHeaderSize();
        outputBufferSize = defaults.outputBufferSize();
    }

    /** Reads {@code config}, a {@code <config name="jdisc.http.connector">} element. */
    static ConnectorConfig read(XmlElement config, Diagnostics diagnostics) {
        return new ConnectorReader(diagnostics).config(config);
    }

    private ConnectorConfig config(XmlElement config) {
        diagnostics.checkAttributes(config, ContainerReader.CONFIG_ATTRIBUTES, Set.of());
        Set<String> seen = new HashSet<>();
        for (XmlElement field : config.children()) {
            diagnostics.once(field, config, seen);
            diagnostics.checkAttributes(field, Set.of(), Set.of());
            switch (field.name()) {
                case "idleTimeout": idleTimeout = diagnostics.text(field, ValueType.POSITIVE_SECONDS); break;
                case "requestHeaderSize": requestHeaderSize = diagnostics.text(field, ValueType.POSITIVE_INT); break;
                case "responseHeaderSize": responseHeaderSize = diagnostics.text(field, ValueType.POSITIVE_INT); break;
                case "outputBufferSize": outputBufferSize = diagnostics.text(field, ValueType.POSITIVE_INT); break;
                case "http2": http2(field); break;
                case "listenPort": diagnostics.noEffect(field, config, "set the port attribute of <server>"); break;
                default:
                    if (NO_EFFECT.contains(field.name())) diagnostics.noEffect(field, config, "not configurable");
                    else diagnostics.unknown(field, config);
            }
        }
        return diagnostics.construct(config, () -> new ConnectorConfig(
                idleTimeout, streamIdleTimeout, maxConcurrentStreams, initialSessionRecvWindow, initialStreamRecvWindow,
                maxRateControlEvents, requestHeaderSize, responseHeaderSize, outputBufferSize));
    }

    private void http2(XmlElement http2) {
        Set<String> seen = new HashSet<>();
        for (XmlElement field : http2.children()) {
            diagnostics.once(field, http2, seen);
            diagnostics.checkAttributes(field, Set.of(), Set.of());
            switch (field.name()) {
                case "streamIdleTimeout": streamIdleTimeout = diagnostics.text(field, ValueType.POSITIVE_SECONDS); break;
                case "maxConcurrentStreams": maxConcurrentStreams = diagnostics.text(field, ValueType.POSITIVE_INT); break;
                case "initialSessionWindowSize": initialSessionRecvWindow = diagnostics.text(field, ValueType.POSITIVE_INT); break;
                case "initialStreamWindowSize": initialStreamRecvWindow = diagnostics.text(field, ValueType.POSITIVE_INT); break;
                case "maxRateControlEvents": maxRateControlEvents = rateControlEvents(field); break;
                default: diagnostics.unknown(field, http2);
            }
        }
    }

    /** Vespa: 0 means Jetty's default, -1 turns rate control off (here: no practical limit). */
    private int rateControlEvents(XmlElement field) {
        int value = diagnostics.text(field, new ValueType<>("a positive integer, 0 or -1",
                                                            text -> ValueType.integer(text, -1, Integer.MAX_VALUE)));
        if (value == 0) return JETTY_DEFAULT_RATE_CONTROL_EVENTS;
        if (value == -1) return Integer.MAX_VALUE;
        return value;
    }

}

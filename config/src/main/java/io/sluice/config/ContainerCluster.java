package io.sluice.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code <container>}: its HTTP servers, the document API, and user handlers.
 *
 * @param id          the cluster id
 * @param servers     the {@code <http><server>} connectors; without {@code <http>}, one cleartext server on 8080
 * @param documentApi the {@code <document-api>} options, empty if the element is absent (no /document/v1)
 * @param handlers    user {@code <handler>} bindings
 * @param accessLog   whether to write the JSON access log, and where
 * @param stopTimeout how long a graceful stop waits for in-flight requests
 * @param clients     the {@code <clients>} allowed to use the document API; empty means no access control
 */
public record ContainerCluster(String id, List<ServerConfig> servers, Optional<DocumentApiConfig> documentApi,
                               List<HandlerConfig> handlers, AccessLogConfig accessLog, Duration stopTimeout,
                               List<ClientConfig> clients) {

    /** A container without access control. */
    public ContainerCluster(String id, List<ServerConfig> servers, Optional<DocumentApiConfig> documentApi,
                            List<HandlerConfig> handlers, AccessLogConfig accessLog, Duration stopTimeout) {
        this(id, servers, documentApi, handlers, accessLog, stopTimeout, List.of());
    }

    public static final int DEFAULT_PORT = 8080;

    /**
     * The graceful stop timeout without {@code <config name="jdisc.http.server"><stopTimeout>}: 30 s, the default of
     * Vespa's {@code jdisc.http.server.def}. Vespa's config model raises it to 300 s for its multi-node deployments;
     * a single process being restarted by hand or by a supervisor is better served by the shorter wait.
     */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(30);

    public ContainerCluster {
        Objects.requireNonNull(id, "id");
        servers = List.copyOf(servers);
        Objects.requireNonNull(documentApi, "documentApi");
        handlers = List.copyOf(handlers);
        Objects.requireNonNull(accessLog, "accessLog");
        Objects.requireNonNull(stopTimeout, "stopTimeout");
        clients = List.copyOf(clients);
        var clientIds = new HashSet<String>();
        for (ClientConfig client : clients)
            if ( ! clientIds.add(client.id()))
                throw new ConfigException("Duplicate <client> id '" + client.id() + "' in <container id='" + id + "'>");
        if (servers.isEmpty())
            throw new ConfigException("<container id='" + id + "'> has no servers");
        var ids = new HashSet<String>();
        var ports = new HashSet<Integer>();
        for (ServerConfig server : servers) {
            if ( ! ids.add(server.id()))
                throw new ConfigException("Duplicate <server> id '" + server.id() + "' in <container id='" + id + "'>");
            if (server.port() != 0 && ! ports.add(server.port()))
                throw new ConfigException("Duplicate <server> port " + server.port() + " in <container id='" + id + "'>");
        }
        if (stopTimeout.isNegative())
            throw new ConfigException("stop timeout must be non-negative, but was " + stopTimeout);
    }

}

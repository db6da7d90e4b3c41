package io.sluice.config;

import java.util.Objects;
import java.util.Optional;

/**
 * One {@code <http><server id port>}: a cleartext connector (HTTP/1.1 and h2c), or with {@code ssl} a TLS connector
 * negotiating h2 or http/1.1 by ALPN.
 *
 * @param id        the connector name
 * @param port      the listen port; 0 picks a free one (tests)
 * @param ssl       TLS settings, empty for cleartext
 * @param connector connector and HTTP/2 settings
 */
public record ServerConfig(String id, int port, Optional<SslConfig> ssl, ConnectorConfig connector) {

    public ServerConfig {
        Objects.requireNonNull(id, "id");
        if (id.isBlank())
            throw new ConfigException("<server> id must not be blank");
        if (port < 0 || port > 65535)
            throw new ConfigException("<server id='" + id + "'> port must be in [0, 65535], but was " + port);
        Objects.requireNonNull(ssl, "ssl");
        Objects.requireNonNull(connector, "connector");
    }

    public static ServerConfig cleartext(String id, int port) {
        return new ServerConfig(id, port, Optional.empty(), ConnectorConfig.defaults());
    }

    public ServerConfig withPort(int port) {
        return new ServerConfig(id, port, ssl, connector);
    }

}

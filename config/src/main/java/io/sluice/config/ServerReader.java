package io.sluice.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads the {@code <http>} element of a container: its {@code <server>} connectors with their TLS and overrides. */
final class ServerReader {

    private static final Set<String> SERVER_ATTRIBUTES = Set.of("id", "port");
    private static final Set<String> SERVER_NO_EFFECT = Set.of("required", "default-request-chain", "default-response-chain");

    private final Diagnostics diagnostics;
    private final Path directory;

    /** @param directory the application package, against which relative file names are resolved */
    ServerReader(Diagnostics diagnostics, Path directory) {
        this.diagnostics = diagnostics;
        this.directory = directory;
    }

    /** The servers of {@code http}; empty if it has none (then the container's default server applies). */
    List<ServerConfig> http(XmlElement http) {
        diagnostics.checkAttributes(http, Set.of(), Set.of());
        List<ServerConfig> servers = new ArrayList<>();
        for (XmlElement child : http.children()) {
            switch (child.name()) {
                case "server": servers.add(server(child)); break;
                case "filtering": // request filters do access control; ignoring them would serve every client
                    throw diagnostics.refused(child, "<filtering> in <http>",
                                              "request filters (and the access control they do) are not implemented "
                                              + "yet, and starting without them would let every client read and write; "
                                              + "remove the element to serve without them");
                default: diagnostics.unknown(child, http);
            }
        }
        return servers;
    }

    private ServerConfig server(XmlElement server) {
        diagnostics.checkAttributes(server, SERVER_ATTRIBUTES, SERVER_NO_EFFECT);
        String id = diagnostics.requiredAttribute(server, "id");
        int port = diagnostics.attribute(server, "port", ValueType.PORT).orElse(ContainerCluster.DEFAULT_PORT);
        Optional<SslConfig> ssl = Optional.empty();
        ConnectorConfig connector = ConnectorConfig.defaults();
        Set<String> seen = new HashSet<>();
        for (XmlElement child : server.children()) {
            switch (child.name()) {
                case "ssl":
                    diagnostics.once(child, server, seen);
                    ssl = Optional.of(ssl(child));
                    break;
                case "ssl-provider": // ignoring it would serve cleartext where TLS was asked for
                    throw diagnostics.error(child, "<ssl-provider> in " + server.describe()
                                                   + " is not supported: configure PEM files with <ssl>");
                case "config":
                    if (ContainerReader.configName(child).equals(ConnectorReader.CONFIG_NAME)) {
                        diagnostics.once(child, server, seen);
                        connector = ConnectorReader.read(child, diagnostics);
                    }
                    else {
                        diagnostics.warn(child, "unsupported config '" + ContainerReader.configName(child) + "' in "
                                                + server.describe() + ", ignored");
                    }
                    break;
                default: diagnostics.unknown(child, server);
            }
        }
        ConnectorConfig connectorConfig = connector;
        Optional<SslConfig> sslConfig = ssl;
        return diagnostics.construct(server, () -> new ServerConfig(id, port, sslConfig, connectorConfig));
    }

    private SslConfig ssl(XmlElement ssl) {
        diagnostics.checkAttributes(ssl, Set.of(), Set.of());
        Path privateKey = null;
        Path certificate = null;
        Optional<Path> caCertificates = Optional.empty();
        SslConfig.ClientAuthentication clientAuthentication = SslConfig.ClientAuthentication.DISABLED;
        List<String> cipherSuites = List.of();
        List<String> protocols = List.of();
        Set<String> seen = new HashSet<>();
        for (XmlElement child : ssl.children()) {
            diagnostics.once(child, ssl, seen);
            diagnostics.checkAttributes(child, Set.of(), Set.of());
            switch (child.name()) {
                case "private-key-file": privateKey = file(child); break;
                case "certificate-file": certificate = file(child); break;
                case "ca-certificates-file": caCertificates = Optional.of(file(child)); break;
                case "client-authentication": clientAuthentication = clientAuthentication(child); break;
                case "cipher-suites": cipherSuites = list(child); break;
                case "protocols": protocols = list(child); break;
                default: diagnostics.unknown(child, ssl);
            }
        }
        if (privateKey == null)
            throw diagnostics.error(ssl, "<ssl> needs a <private-key-file>");
        if (certificate == null)
            throw diagnostics.error(ssl, "<ssl> needs a <certificate-file>");
        Path key = privateKey, chain = certificate;
        Optional<Path> ca = caCertificates;
        SslConfig.ClientAuthentication auth = clientAuthentication;
        List<String> suites = cipherSuites, versions = protocols;
        return diagnostics.construct(ssl, () -> new SslConfig(key, chain, ca, auth, suites, versions));
    }

    /**
     * A file named by the element, relative to the application package unless absolute. A missing file is only a
     * warning: the server reads it when it starts, and certificates are often put in place after the package.
     */
    private Path file(XmlElement element) {
        Path file = directory.resolve(diagnostics.text(element)).normalize();
        if ( ! Files.isRegularFile(file))
            diagnostics.warn(element, "<" + element.name() + "> " + file + " does not exist (yet)");
        return file;
    }

    private SslConfig.ClientAuthentication clientAuthentication(XmlElement element) {
        String value = diagnostics.text(element);
        switch (value) {
            case "disabled": return SslConfig.ClientAuthentication.DISABLED;
            case "want": return SslConfig.ClientAuthentication.WANT;
            case "need": return SslConfig.ClientAuthentication.NEED;
            default: throw diagnostics.error(element, "<client-authentication>: '" + value
                                                      + "' is not one of disabled, want, need");
        }
    }

    /** A comma-separated list; entries are trimmed and blank ones dropped, as in Vespa. */
    private List<String> list(XmlElement element) {
        return Arrays.stream(diagnostics.optionalText(element).split(",")).map(String::trim).filter(s -> ! s.isEmpty()).toList();
    }

}

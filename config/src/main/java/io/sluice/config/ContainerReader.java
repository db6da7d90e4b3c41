package io.sluice.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Reads one {@code <container>} element into a {@link ContainerCluster}. */
final class ContainerReader {

    static final String DEFAULT_ID = "container";
    static final String DEFAULT_SERVER_ID = "default";
    static final String SERVER_CONFIG_NAME = "jdisc.http.server";
    static final Set<String> CONFIG_ATTRIBUTES = Set.of("name", "namespace", "version");

    /** Vespa container features that Sluice does not have. */
    private static final Set<String> UNSUPPORTED = Set.of(
            "search", "document-processing", "processing", "model-evaluation", "component", "components", "include",
            "secret-store", "secrets", "zookeeper", "load-balancer", "document", "server");

    /** Access control Sluice does not have: ignoring it would serve every client, so it stops start-up. */
    private static final Set<String> ACCESS_CONTROL = Set.of("client-authorize");

    /** Fields of Vespa's {@code jdisc.http.server} def that Sluice accepts and does not use. */
    private static final Set<String> SERVER_CONFIG_NO_EFFECT = Set.of(
            "developerMode", "responseCompressionLevel", "removeRawPostBodyForWwwUrlEncodedPost", "filter",
            "defaultFilters", "strictFiltering", "maxWorkerThreads", "minWorkerThreads", "jmx", "metric", "connectionLog");

    private static final Set<String> ACCESS_LOG_NO_EFFECT = Set.of(
            "fileNamePattern", "compressOnRotation", "symlinkName", "compressionType", "queueSize", "bufferSize",
            "rotationInterval");

    private final Diagnostics diagnostics;
    private final Path directory;

    ContainerReader(Diagnostics diagnostics, Path directory) {
        this.diagnostics = diagnostics;
        this.directory = directory;
    }

    /** {@code name}, or {@code namespace.name} when the {@code <config>} element has a namespace. */
    static String configName(XmlElement config) {
        String name = config.attribute("name").orElse("").trim();
        return config.attribute("namespace").map(namespace -> namespace.trim() + "." + name).orElse(name);
    }

    ContainerCluster read(XmlElement container) {
        diagnostics.checkAttributes(container, Set.of("id", "version"), Set.of());
        ApplicationPackageLoader.checkVersion(container, diagnostics);
        String id = diagnostics.nonEmptyAttribute(container, "id").orElse(DEFAULT_ID);
        List<ServerConfig> servers = List.of();
        Optional<DocumentApiConfig> documentApi = Optional.empty();
        List<HandlerConfig> handlers = new ArrayList<>();
        AccessLogConfig accessLog = null;
        Duration stopTimeout = ContainerCluster.DEFAULT_STOP_TIMEOUT;
        List<ClientConfig> clients = List.of();
        XmlElement clientsElement = null;
        Set<String> seen = new HashSet<>();
        for (XmlElement child : container.children()) {
            switch (child.name()) {
                case "http":
                    diagnostics.once(child, container, seen);
                    servers = new ServerReader(diagnostics, directory).http(child);
                    break;
                case "document-api":
                    diagnostics.once(child, container, seen);
                    documentApi = Optional.of(DocumentApiReader.read(child, diagnostics));
                    break;
                case "handler":
                    handlers.add(handler(child));
                    break;
                case "clients":
                    diagnostics.once(child, container, seen);
                    clients = clients(child);
                    clientsElement = child;
                    break;
                case "accesslog":
                    AccessLogConfig log = accessLog(child);
                    if (accessLog == null) accessLog = log;
                    else diagnostics.warn(child, "second <accesslog> in " + container.describe()
                                                 + " ignored: Sluice writes one access log");
                    break;
                case "config":
                    if (configName(child).equals(SERVER_CONFIG_NAME)) {
                        diagnostics.once(child, container, seen);
                        stopTimeout = serverConfig(child).orElse(stopTimeout);
                    }
                    else {
                        diagnostics.warn(child, "unsupported config '" + configName(child) + "' in "
                                                + container.describe() + ", ignored");
                    }
                    break;
                case "nodes":
                    diagnostics.noEffect(child, container, "Sluice runs the container as one process");
                    break;
                case "document-processing":
                    if (hasDescendant(child, "documentprocessor")) {
                        List<XmlElement> processors = new ArrayList<>();
                        descendants(child, "documentprocessor", processors);
                        for (XmlElement processor : processors) {
                            if ( ! diagnostics.skipsUnsupported())
                                throw diagnostics.refused(child, "<document-processing> with <documentprocessor>s in "
                                                                 + container.describe(),
                                                          "document processors change documents before they are stored, and "
                                                          + "Sluice runs none, so it would store documents other than these "
                                                          + "processors make; remove the processors to store documents as fed");
                            diagnostics.refusedUnlessSkipped(processor, "document processor " + processor.describe()
                                                                        + " in " + container.describe(),
                                                             "documents are stored as fed, not as this processor "
                                                             + "would change them");
                        }
                        break;
                    }
                    diagnostics.unsupported(child, container); // Vespa's own indexing chain only: nothing to run
                    break;
                default:
                    if (ACCESS_CONTROL.contains(child.name()))
                        throw diagnostics.refused(child, "<" + child.name() + "> in " + container.describe(),
                                                  "access control is not implemented yet, and starting without it would "
                                                  + "let every client read and write; remove the element to serve "
                                                  + "without access control");
                    if (UNSUPPORTED.contains(child.name())) diagnostics.unsupported(child, container);
                    else diagnostics.unknown(child, container);
            }
        }
        List<ServerConfig> connectors = servers.isEmpty()
                ? List.of(ServerConfig.cleartext(DEFAULT_SERVER_ID, ContainerCluster.DEFAULT_PORT))
                : servers;
        if (clientsElement != null && clients.stream().anyMatch(client -> ! client.certificateFiles().isEmpty())
            && connectors.stream().noneMatch(ContainerReader::asksForClientCertificates))
            throw diagnostics.error(clientsElement, "<clients> of " + container.describe() + " has certificate clients, "
                                                    + "but no <server> has <ssl> with <client-authentication>want or need "
                                                    + "and <ca-certificates-file> trusting them: no request could present "
                                                    + "one (Vespa Cloud's mTLS endpoint is an <http><server> with <ssl> "
                                                    + "here)");
        Optional<DocumentApiConfig> api = documentApi;
        AccessLogConfig log = accessLog == null ? AccessLogConfig.disabled() : accessLog;
        Duration stop = stopTimeout;
        List<ClientConfig> allowed = clients;
        return diagnostics.construct(container, () -> new ContainerCluster(id, connectors, api, handlers, log, stop, allowed));
    }

    private static void descendants(XmlElement element, String name, List<XmlElement> found) {
        for (XmlElement child : element.children()) {
            if (child.name().equals(name))
                found.add(child);
            descendants(child, name, found);
        }
    }

    private static boolean hasDescendant(XmlElement element, String name) {
        for (XmlElement child : element.children())
            if (child.name().equals(name) || hasDescendant(child, name))
                return true;
        return false;
    }

    private static boolean asksForClientCertificates(ServerConfig server) {
        return server.ssl().map(ssl -> ssl.clientAuthentication() != SslConfig.ClientAuthentication.DISABLED).orElse(false);
    }

    /** Vespa's {@code <clients>}: each {@code <client id permissions>} with {@code <certificate file>}s and {@code <token id>}s. */
    private List<ClientConfig> clients(XmlElement clients) {
        diagnostics.checkAttributes(clients, Set.of(), Set.of());
        List<ClientConfig> all = new ArrayList<>();
        for (XmlElement client : clients.children()) {
            if ( ! client.name().equals("client")) {
                diagnostics.unknown(client, clients);
                continue;
            }
            diagnostics.checkAttributes(client, Set.of("id", "permissions"), Set.of());
            String id = diagnostics.requiredAttribute(client, "id");
            Set<ClientConfig.Permission> permissions = new java.util.TreeSet<>();
            for (String permission : diagnostics.requiredAttribute(client, "permissions").split(",")) {
                switch (permission.trim()) {
                    case "read": permissions.add(ClientConfig.Permission.READ); break;
                    case "write": permissions.add(ClientConfig.Permission.WRITE); break;
                    default: throw diagnostics.error(client, client.describe() + " permissions: '" + permission.trim()
                                                             + "' is not one of read, write");
                }
            }
            List<Path> certificates = new ArrayList<>();
            List<String> tokens = new ArrayList<>();
            for (XmlElement credential : client.children()) {
                switch (credential.name()) {
                    case "certificate": {
                        diagnostics.checkAttributes(credential, Set.of("file"), Set.of());
                        Path file = directory.resolve(diagnostics.requiredAttribute(credential, "file")).normalize();
                        if ( ! Files.isRegularFile(file))
                            throw diagnostics.error(credential, "<certificate> file " + file + " of " + client.describe()
                                                                + " does not exist");
                        certificates.add(file);
                        break;
                    }
                    case "token":
                        diagnostics.checkAttributes(credential, Set.of("id"), Set.of());
                        tokens.add(diagnostics.requiredAttribute(credential, "id"));
                        break;
                    default:
                        diagnostics.unknown(credential, client);
                }
            }
            all.add(diagnostics.construct(client, () -> new ClientConfig(id, permissions, certificates, tokens)));
        }
        if (all.isEmpty())
            throw diagnostics.error(clients, "<clients> has no <client>: every request would be refused");
        return all;
    }

    /** In Vespa a handler's class defaults to its id. */
    private HandlerConfig handler(XmlElement handler) {
        diagnostics.checkAttributes(handler, Set.of("id", "class"), Set.of("bundle"));
        String id = diagnostics.requiredAttribute(handler, "id");
        String className = handler.attribute("class").map(String::trim).filter(c -> ! c.isEmpty()).orElse(id);
        List<String> bindings = new ArrayList<>();
        for (XmlElement child : handler.children()) {
            if (child.name().equals("binding")) {
                diagnostics.checkAttributes(child, Set.of(), Set.of());
                bindings.add(diagnostics.text(child));
            }
            else {
                diagnostics.unsupported(child, handler);
            }
        }
        return diagnostics.construct(handler, () -> new HandlerConfig(id, className, bindings,
                                                                             diagnostics.location(handler)));
    }

    /**
     * {@code type="json"} (Vespa's default type) writes JSON lines to {@code file}, or to standard output without one;
     * {@code type="disabled"} turns the log off. Vespa's other formats are written as JSON, with a warning.
     */
    private AccessLogConfig accessLog(XmlElement accessLog) {
        diagnostics.checkAttributes(accessLog, Set.of("type", "file"), ACCESS_LOG_NO_EFFECT);
        for (XmlElement child : accessLog.children())
            diagnostics.unknown(child, accessLog);
        String type = accessLog.attribute("type").map(String::trim).orElse("json");
        switch (type) {
            case "disabled":
                return AccessLogConfig.disabled();
            case "vespa":
            case "yapache":
                diagnostics.warn(accessLog, "<accesslog> type '" + type + "' is not supported, writing JSON instead");
                break;
            case "json":
                break;
            default:
                throw diagnostics.error(accessLog, "<accesslog> type: '" + type
                                                   + "' is not one of json, disabled, vespa, yapache");
        }
        Optional<Path> file = accessLog.attribute("file").map(String::trim)
                .map(name -> {
                    if (name.isEmpty()) throw diagnostics.error(accessLog, "<accesslog> file must not be empty");
                    return directory.resolve(name).normalize();
                });
        return diagnostics.construct(accessLog, () -> new AccessLogConfig(true, file));
    }

    /** The {@code stopTimeout} of a {@code <config name="jdisc.http.server">}, if set. */
    private Optional<Duration> serverConfig(XmlElement config) {
        diagnostics.checkAttributes(config, CONFIG_ATTRIBUTES, Set.of());
        Optional<Duration> stopTimeout = Optional.empty();
        Set<String> seen = new HashSet<>();
        for (XmlElement field : config.children()) {
            diagnostics.once(field, config, seen);
            if (field.name().equals("stopTimeout"))
                stopTimeout = Optional.of(diagnostics.text(field, ValueType.SECONDS));
            else if (SERVER_CONFIG_NO_EFFECT.contains(field.name()))
                diagnostics.noEffect(field, config, "not configurable");
            else
                diagnostics.unknown(field, config);
        }
        return stopTimeout;
    }

}

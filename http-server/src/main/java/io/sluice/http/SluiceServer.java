package io.sluice.http;

import io.sluice.config.ContainerCluster;
import io.sluice.config.HandlerConfig;
import io.sluice.config.ServerConfig;
import io.sluice.container.ApplicationInfo;
import io.sluice.container.BindingRouter;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.HandlerRegistry;
import io.sluice.container.JsonErrorHandler;
import io.sluice.container.MetricsSource;
import io.sluice.container.JvmMetrics;
import io.sluice.container.MetricsSources;
import io.sluice.container.MetricsWindow;
import io.sluice.container.RequestStatistics;
import io.sluice.container.RequestTrackingHandler;
import io.sluice.container.ServiceHealth;
import io.sluice.container.StatusContext;
import io.sluice.container.StatusHandlers;
import io.sluice.content.SystemUtcClock;
import io.sluice.http.tls.CertificateReloader;
import com.sun.management.UnixOperatingSystemMXBean;
import io.sluice.http.tls.TlsContextFactories;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionConfig;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One container cluster served by Jetty: a connector per {@code <server>}, and the handler tree
 * graceful stop → request statistics → gzip (request inflation, response compression) → binding router.
 * Built with {@link #builder(ContainerCluster)}; {@link #start()} binds the ports, {@link #stop()} stops gracefully.
 */
public final class SluiceServer {

    /** How often TLS files are checked for rotation. */
    public static final Duration CERTIFICATE_CHECK_INTERVAL = Duration.ofSeconds(30);

    private final ContainerCluster cluster;
    private final Server server;
    private final ServiceHealth health = new ServiceHealth();
    private final HandlerRegistry registry = new HandlerRegistry();
    private final Map<String, ServerConnector> connectors = new LinkedHashMap<>();
    private final Map<String, CertificateReloader> reloaders = new LinkedHashMap<>();
    private final CompletableFuture<Void> stopping = new CompletableFuture<>();

    private SluiceServer(Builder builder) {
        this.cluster = builder.cluster;
        var threads = new QueuedThreadPool(threadCount(), threadCount());
        threads.setName("sluice-jetty");
        this.server = new Server(threads);
        server.setStopTimeout(cluster.stopTimeout().toMillis());
        server.setErrorHandler(new JsonErrorHandler());

        var statistics = new RequestStatistics(builder.clock);
        var serverIds = cluster.servers().stream().map(ServerConfig::id).toList();
        var metrics = new MetricsSources();
        builder.metricsSources.forEach(metrics::add);
        builder.failures.forEach(health::watch);
        builder.conditions.forEach(health::note);
        metrics.add(new JvmMetrics());
        metrics.add(new JettyMetrics(threads, connectors));
        StatusHandlers.register(registry, new StatusContext(health, statistics, builder.application, serverIds, builder.clock,
                                                            metrics),
                                cluster.id(), new MetricsWindow(builder.clock, MetricsWindow.DEFAULT_PERIOD));
        builder.handlers.forEach(registry::register);
        for (HandlerConfig handler : cluster.handlers())
            registry.register(UserHandlers.create(handler, builder.classLoader));

        server.setHandler(new Stopping(statistics, new HeaderSizeLimitHandler(
                AccessControl.wrap(new CompressionWhenAsked(compression(new BindingRouter(registry.registrations()))), cluster,
                                   builder.environment))));
        if (cluster.accessLog().enabled())
            server.setRequestLog(JsonRequestLog.of(cluster.accessLog()));

        var connectionLimit = new NetworkConnectionLimit(maxConnections(), server);
        connectionLimit.setEndPointIdleTimeout(LIMITED_IDLE_TIMEOUT.toMillis());
        server.addBean(connectionLimit);
        for (ServerConfig config : cluster.servers()) {
            Optional<SslContextFactory.Server> tls = config.ssl().map(TlsContextFactories::create);
            ServerConnector connector = Connectors.create(server, config, Optional.ofNullable(builder.host), tls, cluster.stopTimeout());
            server.addConnector(connector);
            connectors.put(config.id(), connector);
            tls.ifPresent(factory -> {
                var reloader = new CertificateReloader(config.ssl().get(), factory, builder.certificateCheckInterval);
                server.addBean(reloader);
                reloaders.put(config.id(), reloader);
            });
        }
    }

    /**
     * gzip both ways: request bodies with {@code Content-Encoding: gzip} are inflated for every method that carries one
     * (Jetty's default is POST only), and responses are compressed when the client accepts it. {@code /document/v1}
     * inflates its own bodies: Jetty's inflation checks neither the CRC nor a truncated end, and counts nothing.
     */
    static CompressionHandler compression(Handler handler) {
        var compression = new CompressionHandler(handler);
        compression.putCompression(new GzipCompression());
        var config = CompressionConfig.builder().defaults();
        for (String method : List.of("PUT", "PATCH", "DELETE")) {
            config.decompressIncludeMethod(method);
            config.compressIncludeMethod(method);
        }
        config.decompressExcludePath("/document/v1");
        config.decompressExcludePath("/document/v1/*");
        compression.putConfiguration("/", config.build());
        return compression;
    }

    /** The idle timeout of every connection while the server is at its connection limit. */
    static final Duration LIMITED_IDLE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Most open connections: half the process's file descriptors (the rest are for the store, logs and clients of
     * Cassandra), between 256 and 20,000. Beyond it, accepting pauses and idle connections time out sooner, so a flood
     * of connections cannot take the descriptors the store needs.
     */
    static int maxConnections() {
        long descriptors = 4096;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean)
            descriptors = ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getMaxFileDescriptorCount();
        return (int) Math.max(256, Math.min(20_000, descriptors / 2));
    }

    /** Jetty's thread pool, sized as Vespa's container: 16 plus one per core. */
    static int threadCount() {
        return 16 + Runtime.getRuntime().availableProcessors();
    }

    public static Builder builder(ContainerCluster cluster) {
        return new Builder(cluster);
    }

    /**
     * Binds every connector and starts serving; health is {@code up} when this returns.
     *
     * @throws UncheckedIOException if a port cannot be bound
     * @throws IllegalStateException if Jetty fails to start for another reason
     */
    public void start() {
        try {
            server.start();
        }
        catch (IOException e) {
            stopQuietly();
            throw new UncheckedIOException("Cannot listen: " + e.getMessage(), e);
        }
        catch (Exception e) {
            stopQuietly();
            throw new IllegalStateException("Starting the server failed: " + e.getMessage(), e);
        }
        health.up();
    }

    /**
     * Stops gracefully: health turns {@code down}, connectors stop accepting, new requests on open connections get 503,
     * and in-flight requests get up to the cluster's stop timeout to finish. Returns when stopped.
     */
    public void stop() {
        health.down();
        try {
            server.stop();
        }
        catch (Exception e) {
            throw new IllegalStateException("Stopping the server failed: " + e.getMessage(), e);
        }
    }

    /** Completes when a stop has begun rejecting new requests. */
    public CompletableFuture<Void> stopping() {
        return stopping.copy();
    }

    /** The port the given server listens on, once started. */
    public int port(String serverId) {
        return connector(serverId).getLocalPort();
    }

    /** {@code http://host:port/} or {@code https://host:port/} for the given server, once started. */
    public URI uri(String serverId) {
        ServerConnector connector = connector(serverId);
        String host = connector.getHost() == null ? "localhost" : connector.getHost();
        String scheme = reloaders.containsKey(serverId) ? "https" : "http";
        return URI.create(scheme + "://" + host + ":" + connector.getLocalPort() + "/");
    }

    /** The rotation check of a TLS server. */
    public Optional<CertificateReloader> certificateReloader(String serverId) {
        connector(serverId);
        return Optional.ofNullable(reloaders.get(serverId));
    }

    public ServiceHealth health() {
        return health;
    }

    /**
     * Whether this server's handlers block: {@code NON_BLOCKING} unless one does, and only then do its HTTP/2
     * connections write the answers of each round of reads together ({@link FairEndPoint}).
     */
    Invocable.InvocationType invocationType() {
        return server.getInvocationType();
    }

    /** The mounted handlers, built-in and user. */
    public List<HandlerRegistration> handlers() {
        return registry.registrations();
    }

    public ContainerCluster cluster() {
        return cluster;
    }

    private ServerConnector connector(String serverId) {
        ServerConnector connector = connectors.get(serverId);
        if (connector == null)
            throw new IllegalArgumentException("No server with id '" + serverId + "'; servers are " + connectors.keySet());
        return connector;
    }

    private void stopQuietly() {
        try {
            server.stop();
        }
        catch (Exception ignored) {
            // Already failing to start; the start failure is what matters.
        }
    }

    /** Graceful stop that also takes the container out of rotation the moment it begins. */
    /** The outermost handler: on graceful stop, also reports the service down and completes {@link #stopping()}. */
    private final class Stopping extends RequestTrackingHandler {

        Stopping(RequestStatistics statistics, Handler handler) {
            super(statistics, handler);
        }

        @Override
        public CompletableFuture<Void> shutdown() {
            health.down();
            CompletableFuture<Void> done = super.shutdown();
            stopping.complete(null);
            return done;
        }

    }

    /** Options for a {@link SluiceServer}. */
    public static final class Builder {

        private final ContainerCluster cluster;
        private final List<HandlerRegistration> handlers = new ArrayList<>();
        private final List<MetricsSource> metricsSources = new ArrayList<>();
        private final List<Supplier<Optional<String>>> failures = new ArrayList<>();
        private final List<Supplier<Optional<String>>> conditions = new ArrayList<>();
        private String host;
        private Clock clock = SystemUtcClock.instance();
        private ClassLoader classLoader = SluiceServer.class.getClassLoader();
        private Duration certificateCheckInterval = CERTIFICATE_CHECK_INTERVAL;
        private ApplicationInfo application;
        private java.util.function.Function<String, String> environment = System::getenv;

        private Builder(ContainerCluster cluster) {
            this.cluster = Objects.requireNonNull(cluster, "cluster");
        }

        /** Binds only this interface (e.g. {@code 127.0.0.1} in tests); default all interfaces. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** Mounts one more handler, e.g. {@code /document/v1}. */
        public Builder handler(HandlerRegistration registration) {
            handlers.add(Objects.requireNonNull(registration, "registration"));
            return this;
        }

        /** Reports more metrics at {@code /state/v1/metrics}, e.g. a handler's. */
        public Builder metricsSource(MetricsSource source) {
            metricsSources.add(Objects.requireNonNull(source, "source"));
            return this;
        }

        /** Takes health {@code down}, with its message, while {@code failure} reports one (see {@link ServiceHealth#watch}). */
        public Builder healthWatch(Supplier<Optional<String>> failure) {
            failures.add(Objects.requireNonNull(failure, "failure"));
            return this;
        }

        /** Has health say {@code condition}'s message while it reports one, staying up (see {@link ServiceHealth#note}). */
        public Builder healthNote(Supplier<Optional<String>> condition) {
            conditions.add(Objects.requireNonNull(condition, "condition"));
            return this;
        }

        /** What {@code /ApplicationStatus} reports; default an unnamed application. */
        public Builder application(ApplicationInfo application) {
            this.application = Objects.requireNonNull(application, "application");
            return this;
        }

        /** Where token values of {@code <clients>} are read from; default the process environment. */
        public Builder environment(java.util.function.Function<String, String> environment) {
            this.environment = Objects.requireNonNull(environment, "environment");
            return this;
        }

        /** Where user {@code <handler>} classes are loaded from; default this class's loader. */
        public Builder classLoader(ClassLoader classLoader) {
            this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public Builder certificateCheckInterval(Duration interval) {
            this.certificateCheckInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /**
         * Creates the server, not yet started.
         *
         * @throws io.sluice.config.ConfigException if TLS files or user handlers are invalid
         */
        public SluiceServer build() {
            if (application == null)
                application = new ApplicationInfo(cluster.id(), "", "", 1, clock.instant());
            return new SluiceServer(this);
        }

    }

}

package io.sluice.feed;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Configures and builds a {@link FeedClient} (and a {@link VisitClient} with the same connection settings).
 * Defaults match the official client: 8 connections per endpoint, 128 streams per connection, gzip above 512 bytes,
 * a 10 s grace period before the breaker half-opens, a 15 minute budget per operation.
 */
public final class FeedClientBuilder {

    final List<URI> endpoints;
    int connectionsPerEndpoint = 8;
    int maxStreamsPerConnection = 128;
    SSLContext sslContext;
    Path certificate;
    Path privateKey;
    Path caCertificates;
    boolean hostnameVerification = true;
    boolean preferChaCha20 = false;
    final Map<String, Supplier<String>> headers = new LinkedHashMap<>();
    Compression compression = Compression.AUTO;
    RetryStrategy retryStrategy = RetryStrategy.defaults();
    CircuitBreaker circuitBreaker;
    boolean dryrun = false;
    boolean speedTest = false;
    Duration timeout = Duration.ofMinutes(15);
    int maxPendingOperations = -1;
    boolean blockWhenFull = true;
    int initialInflightFactor = 1;
    Throttler throttler;
    boolean handshake = true;

    private FeedClientBuilder(List<URI> endpoints) {
        if (endpoints.isEmpty()) throw new IllegalArgumentException("At least one endpoint is needed");
        for (URI endpoint : endpoints) {
            if ( ! "http".equals(endpoint.getScheme()) && ! "https".equals(endpoint.getScheme()))
                throw new IllegalArgumentException("Endpoint scheme must be http or https, but was '" + endpoint + "'");
            if (endpoint.getHost() == null)
                throw new IllegalArgumentException("Endpoint must have a host, but was '" + endpoint + "'");
        }
        this.endpoints = List.copyOf(endpoints);
    }

    /** A builder for one endpoint; only its scheme, host and port are used. */
    public static FeedClientBuilder create(URI endpoint) { return new FeedClientBuilder(List.of(endpoint)); }

    /** A builder for several endpoints; each operation goes to one of them. */
    public static FeedClientBuilder create(List<URI> endpoints) { return new FeedClientBuilder(endpoints); }

    public FeedClientBuilder setConnectionsPerEndpoint(int connections) {
        this.connectionsPerEndpoint = positive("Connections per endpoint", connections);
        return this;
    }

    public FeedClientBuilder setMaxStreamPerConnection(int streams) {
        this.maxStreamsPerConnection = positive("Max streams per connection", streams);
        return this;
    }

    /** A complete TLS context; overrides the certificate and CA settings. */
    public FeedClientBuilder setSslContext(SSLContext context) {
        this.sslContext = Objects.requireNonNull(context);
        return this;
    }

    /** A client certificate chain and its private key, as PEM files (PKCS#8, PKCS#1 RSA or SEC1 EC keys). */
    public FeedClientBuilder setCertificate(Path certificate, Path privateKey) {
        this.certificate = Objects.requireNonNull(certificate);
        this.privateKey = Objects.requireNonNull(privateKey);
        return this;
    }

    /** CA certificates (PEM) to trust instead of the JVM's trust store. */
    public FeedClientBuilder setCaCertificatesFile(Path caCertificates) {
        this.caCertificates = Objects.requireNonNull(caCertificates);
        return this;
    }

    /** Whether the server's certificate must match its host name; on by default. */
    public FeedClientBuilder setHostnameVerification(boolean verify) {
        this.hostnameVerification = verify;
        return this;
    }

    /**
     * Over TLS, whether feed connections offer only ChaCha20-Poly1305 cipher suites, and the JVM's default suites only
     * to a server that refused those in a handshake (which costs one more handshake, and no operation); off by default.
     * Visits, which receive much and send little, always offer the default suites.
     * For a JVM without the C2 compiler (as {@code ./sluice feed} runs): only C2 uses the CPU's AES and carry-less
     * multiply instructions, so without it AES-GCM costs three times what ChaCha20-Poly1305 does per byte, while with
     * it AES-GCM costs a quarter. Offering both would not do: servers that pick by their own order (Jetty's default,
     * so Vespa's and Sluice's) list AES-GCM first.
     */
    public FeedClientBuilder setPreferChaCha20(boolean prefer) {
        this.preferChaCha20 = prefer;
        return this;
    }

    /** A header on every request; replaces the one of the same name, User-Agent included. */
    public FeedClientBuilder addRequestHeader(String name, String value) {
        Objects.requireNonNull(value);
        return addRequestHeader(name, () -> value);
    }

    /** A header whose value is asked for on every request. */
    public FeedClientBuilder addRequestHeader(String name, Supplier<String> value) {
        if (Objects.requireNonNull(name).isBlank()) throw new IllegalArgumentException("Header name must be non-blank");
        headers.put(name, Objects.requireNonNull(value));
        return this;
    }

    public FeedClientBuilder setCompression(Compression compression) {
        this.compression = Objects.requireNonNull(compression);
        return this;
    }

    public FeedClientBuilder setRetryStrategy(RetryStrategy strategy) {
        this.retryStrategy = Objects.requireNonNull(strategy);
        return this;
    }

    public FeedClientBuilder setCircuitBreaker(CircuitBreaker breaker) {
        this.circuitBreaker = Objects.requireNonNull(breaker);
        return this;
    }

    /** Replaces the {@link DynamicThrottler}, e.g. with a fixed in-flight count. */
    public FeedClientBuilder setThrottler(Throttler throttler) {
        this.throttler = Objects.requireNonNull(throttler);
        return this;
    }

    /** No network: every operation succeeds at once. For measuring the client and the input. */
    public FeedClientBuilder setDryrun(boolean dryrun) {
        this.dryrun = dryrun;
        return this;
    }

    /** Sends {@code dryRun=true}: the server acknowledges without storing. */
    public FeedClientBuilder setSpeedTest(boolean speedTest) {
        this.speedTest = speedTest;
        return this;
    }

    /** The time budget of an operation without its own timeout; 15 minutes by default. */
    public FeedClientBuilder setTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("Timeout must be positive, but was " + timeout);
        this.timeout = timeout;
        return this;
    }

    /**
     * How many operations the client holds at most, in flight or waiting; this bounds its memory. By default twice the
     * most it may have in flight.
     */
    public FeedClientBuilder setMaxPendingOperations(int max) {
        this.maxPendingOperations = positive("Max pending operations", max);
        return this;
    }

    /** Whether a full client blocks the caller (default) or fails the operation at once. */
    public FeedClientBuilder setBlockWhenFull(boolean block) {
        this.blockWhenFull = block;
        return this;
    }

    /**
     * Whether {@link #build()} first checks that the server can be reached, as the official client does, with
     * {@code POST /document/v1/feeder/handshake/docid/dummy?dryRun=true}; on by default. Any HTTP response passes.
     */
    public FeedClientBuilder setHandshake(boolean handshake) {
        this.handshake = handshake;
        return this;
    }

    /** Starts the throttler at {@code factor} times its minimum. */
    public FeedClientBuilder setInitialInflightFactor(int factor) {
        this.initialInflightFactor = positive("Initial in-flight factor", factor);
        return this;
    }

    /** {@link Compression#AUTO} to endpoints that are all on this machine is {@link Compression#NONE}. */
    static Compression effectiveCompression(Compression compression, java.util.List<URI> endpoints) {
        return compression == Compression.AUTO && endpoints.stream().allMatch(FeedClientBuilder::isLoopback) ? Compression.NONE : compression;
    }

    /** Judged from the host as written, without a name lookup. */
    private static boolean isLoopback(URI endpoint) {
        String host = endpoint.getHost();
        return host != null && (host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1"));
    }

    int minInflight() { return 2 * connectionsPerEndpoint * endpoints.size(); }

    int maxInflight() {
        return (int) Math.max(minInflight(), Math.min(256L * minInflight(),
                (long) endpoints.size() * connectionsPerEndpoint * maxStreamsPerConnection));
    }

    /**
     * Builds the client, and unless turned off or in dry-run mode, sends the handshake request.
     *
     * @throws FeedException if the TLS files cannot be read, or the handshake gets no HTTP response within 30 s
     */
    public FeedClient build() {
        StatsCollector stats = new StatsCollector();
        Cluster cluster = dryrun ? new DryrunCluster() : new Http2Cluster(this);
        if (handshake && ! dryrun) handshake(cluster);
        SystemScheduler scheduler = new SystemScheduler();
        Throttler throttler = this.throttler != null
                ? this.throttler
                : new DynamicThrottler(minInflight(), maxInflight(), (long) minInflight() * initialInflightFactor);
        CircuitBreaker breaker = circuitBreaker != null ? circuitBreaker : new GracePeriodCircuitBreaker(Duration.ofSeconds(10));
        int maxPending = maxPendingOperations > 0 ? maxPendingOperations : 2 * maxInflight();
        RequestStrategy strategy = new RequestStrategy(cluster, throttler, breaker, retryStrategy, scheduler, stats,
                                                       () -> ThreadLocalRandom.current().nextDouble(), maxPending,
                                                       blockWhenFull);
        return new HttpFeedClient(strategy, stats, breaker, effectiveCompression(compression, endpoints), timeout, speedTest, () -> {
            cluster.close();
            scheduler.close();
        });
    }

    private static void handshake(Cluster cluster) {
        long start = System.nanoTime();
        java.util.concurrent.CompletableFuture<HttpResponse> response = new java.util.concurrent.CompletableFuture<>();
        cluster.dispatch(new HttpRequest("POST", "/document/v1/feeder/handshake/docid/dummy?dryRun=true", HttpRequest.NO_BODY,
                                         false, 0, start + Duration.ofSeconds(30).toNanos()),
                         new Cluster.Callback() {
                             @Override public void completed(HttpResponse r) { response.complete(r); }
                             @Override public void failed(Throwable cause) { response.completeExceptionally(cause); }
                         });
        try {
            response.get(35, java.util.concurrent.TimeUnit.SECONDS);
        }
        catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            cluster.close();
            Throwable cause = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
            String problem = cluster instanceof Http2Cluster ? ((Http2Cluster) cluster).clientCertificateProblem().map(p -> "; " + p).orElse("") : "";
            throw new FeedException(null, "Failed handshake with server after " + Duration.ofNanos(System.nanoTime() - start) + ": " + cause + problem, cause);
        }
        catch (InterruptedException e) {
            cluster.close();
            Thread.currentThread().interrupt();
            throw new FeedException("Interrupted during the handshake with the server");
        }
    }

    /** Builds a client for visiting, update-where and delete-where, with this builder's connection settings. */
    public VisitClient buildVisitClient() { return new VisitClient(this); }

    private static int positive(String what, int value) {
        if (value < 1) throw new IllegalArgumentException(what + " must be positive, but was " + value);
        return value;
    }

}

package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;
import io.sluice.config.VisitLimits;
import io.sluice.container.HttpStatusException;
import io.sluice.container.Metric;
import io.sluice.content.SystemUtcClock;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Vespa's {@code /document/v1} API (bound to {@code http://*}{@code /document/v1/*}). Only dispatches: matches the
 * path ({@link DocumentPath}), answers OPTIONS and wrong methods, parses the shared parameters
 * ({@link RequestParameters}), gives the request its deadline, and hands the request to
 * {@link SingleDocumentOperations} or to the {@link VisitRoutes}. Every error becomes a JSON response through
 * {@link DocumentResponses}; an unexpected exception is a 500, logged once. Never blocks.
 *
 * <p>Owns the content backends: stopping the handler (after the server's graceful drain) closes them.
 */
public final class DocumentV1ApiHandler extends Handler.Abstract.NonBlocking {

    private static final Logger log = LoggerFactory.getLogger(DocumentV1ApiHandler.class);

    /** The binding Vespa uses, which {@code vespa visit} looks for in the {@code GET /} listing. */
    public static final String BINDING = "http://*/document/v1/*";

    /** How long the oldest queued operation may wait before new ones are refused (Vespa's {@code maxThrottledAge}). */
    public static final Duration MAX_QUEUE_AGE = Duration.ofSeconds(3);

    /**
     * Default number of visits (and copy, update-where, delete-where) served at once: each holds a backend iterator and
     * response buffers for as long as its client reads, so they are bounded as bodies are. Vespa's CLI uses one per
     * slice; 32 leaves room for four 8-slice dumps. Their backend reads share the store's threads with every get.
     * How they are shared between clients: {@link VisitSlots}.
     */
    public static final int DEFAULT_MAX_VISITS = VisitLimits.DEFAULT_MAX_VISITS;

    /** The request attribute naming the {@code <clients>} client a request is from, when access control is on. */
    public static final String CLIENT_ATTRIBUTE = "io.sluice.client";

    private final DocumentApiContext context;
    private final SingleDocumentOperations documents;
    private final VisitRoutes visits;
    private final Timing timing; // every exchange's observer
    private final ToLongFunction<Request> beginNanos;
    private final Trace noTrace;
    private final Consumer<DocumentRequest> waiting = this::waiting; // one for all requests
    private final ScheduledExecutorScheduler ownScheduler;
    private final VisitSlots visitSlots;
    private final TaskScheduler scheduler;
    private final Duration sweepInterval;
    private Runnable cancelSweep = () -> { }; // guarded by this
    private boolean sweeping = false;         // guarded by this
    private final Deadlines deadlines;
    private final GarbageCollector garbageCollector;

    private DocumentV1ApiHandler(Builder builder) {
        this.ownScheduler = builder.scheduler == null ? new ScheduledExecutorScheduler("sluice-document-v1-deadlines", true) : null;
        TaskScheduler scheduler = builder.scheduler != null ? builder.scheduler : jettyScheduler(ownScheduler);
        DocumentApiConfig config = builder.config;
        this.scheduler = scheduler;
        VisitLimits limits = builder.visitLimits != null ? builder.visitLimits : config.visits();
        this.visitSlots = new VisitSlots(limits, builder.clock);
        this.sweepInterval = sweepInterval(limits.stallTimeout());
        var admission = new Admission(maxPendingOperations(config), config.maxPendingBytes(), MAX_QUEUE_AGE, builder.clock);
        var metrics = new DocumentApiMetrics();
        MemoryBudget bodies = builder.bodyMemory != null ? builder.bodyMemory : MemoryBudget.ofHeap();
        MemoryBudget visitMemory = builder.visitMemory != null ? builder.visitMemory : MemoryBudget.ofHeap();
        var content = new ContentClusterMetrics(builder.clusters);
        this.garbageCollector = new GarbageCollector(builder.clusters, scheduler, builder.clock);
        metrics.gauges(() -> {
            List<Metric> gauges = new ArrayList<>();
            gauges.add(Metric.gauge("httpapi_pending", Map.of(), admission.pending()));
            gauges.add(Metric.gauge("httpapi_queued_operations", Map.of(), admission.pending()));
            gauges.add(Metric.gauge("httpapi_queued_bytes", Map.of(), admission.pendingBytes()));
            gauges.add(Metric.gauge("httpapi_queued_age", Map.of(), admission.oldestAgeMillis() / 1000.0));
            gauges.add(Metric.gauge("httpapi_body_bytes", Map.of(), bodies.reserved()));
            gauges.add(Metric.gauge("httpapi_running_visits", Map.of(), visitSlots.running()));
            gauges.add(Metric.counter("httpapi_stalled_visits", Map.of(), visitSlots.stalledVisits()));
            gauges.add(Metric.counter("httpapi_visits_refused_per_client", Map.of(), visitSlots.refusedPerClient()));
            gauges.add(Metric.gauge("httpapi_visit_bytes", Map.of(), visitMemory.reserved()));
            gauges.addAll(content.metrics());
            gauges.addAll(garbageCollector.metrics());
            return gauges;
        });
        this.context = new DocumentApiContext(builder.clusters, config, builder.clock, scheduler, admission, metrics, bodies,
                                              visitMemory);
        this.documents = new SingleDocumentOperations(context);
        this.visits = Objects.requireNonNull(builder.visitRoutes.apply(context), "visit routes");
        this.timing = new Timing(context.metrics(), builder.nanoTime);
        this.beginNanos = builder.beginNanos;
        this.noTrace = Trace.off(builder.clock);
        this.deadlines = new Deadlines(builder.clock, scheduler, DocumentV1ApiHandler::timeOut);
        if (ownScheduler != null)
            addBean(ownScheduler, true);
    }

    /**
     * {@code maxpendingdocs} if configured, else a bound from the heap: beyond its body (which {@code maxpendingbytes}
     * and the body memory count), a pending operation holds its request and response state, its parsed document's
     * overhead and its futures, a few KiB. 1/16 of the heap at 8 KiB each, between 1 024 and 65 536: a 1 GiB heap
     * takes 8 192 (32 connections of 256 streams), the default heap of a 16 GiB machine 32 768.
     */
    static int maxPendingOperations(DocumentApiConfig config) {
        if (config.maxPendingDocs() > 0)
            return config.maxPendingDocs();
        long perOperation = 8 * 1024;
        return (int) Math.max(1024, Math.min(65536, Runtime.getRuntime().maxMemory() / 16 / perOperation));
    }

    private static TaskScheduler jettyScheduler(Scheduler scheduler) {
        return (task, delay) -> {
            Scheduler.Task scheduled = scheduler.schedule(task, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
            return scheduled::cancel;
        };
    }

    /** A handler over {@code clusters} with the {@code <document-api>} options {@code config}. */
    public static Builder builder(ContentClusters clusters, DocumentApiConfig config) {
        return new Builder(clusters, config);
    }

    /** What the handler's parts share. */
    public DocumentApiContext context() {
        return context;
    }

    /**
     * What keeps the content clusters from serving everything, e.g. {@code content cluster 'music': writes are refused
     * (507): ...}, joined by "; ", or empty: for the status message of {@code /state/v1/health}.
     */
    public Optional<String> condition() {
        List<String> conditions = new ArrayList<>();
        for (ContentClusters.Cluster cluster : context.clusters().all())
            cluster.backend().condition().ifPresent(condition -> conditions.add("content cluster '" + cluster.id()
                                                                                + "': " + condition));
        return conditions.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", conditions));
    }

    /** The handler's metrics, for {@code /state/v1/metrics}. */
    public DocumentApiMetrics metrics() {
        return context.metrics();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Exchange exchange = new Exchange(request, response, callback, timing, beginNanos.applyAsLong(request));
        String method = request.getMethod();
        context.metrics().request(method);
        String rawPath = request.getHttpURI().getPath();
        try {
            dispatch(method, rawPath, exchange);
        }
        catch (RuntimeException | Error e) {
            DocumentResponses.Reply reply = Failures.reply(rawPath, e, "handling " + method);
            exchange.respond(reply.status(), reply.body(), reply.lease(), Map.of());
        }
        return true;
    }

    private void dispatch(String method, String rawPath, Exchange exchange) {
        DocumentPath path = DocumentPath.parse(rawPath);
        Route route = path.route();
        if (method.equals("OPTIONS")) {
            exchange.respond(HttpStatus.NO_CONTENT_204, new byte[0], Map.of("Allow", String.join(",", route.methods())));
            return;
        }
        if ( ! route.allows(method))
            throw new HttpStatusException(HttpStatus.METHOD_NOT_ALLOWED_405,
                                          "'" + method + "' not allowed at '" + rawPath + "'. Allowed methods are: "
                                          + String.join(", ", route.methods()));
        RequestParameters parameters = RequestParameters.parse(exchange.request().getHttpURI().getQuery());
        Instant created = context.clock().instant();
        Duration timeout = parameters.duration("timeout").orElse(context.config().timeout());
        int traceLevel = parameters.traceLevel();
        Trace trace = traceLevel == 0 ? noTrace : new Trace(traceLevel, context.clock(), created);
        DocumentRequest request = new DocumentRequest(method, path, parameters, exchange, created, timeout, trace,
                                                      waiting);
        if (route.isSelection()) {
            parameters.disallow(rawPath, "dryRun");
            admitVisit(exchange);
            request.watchDeadline();
            switch (method) {
                case "GET": context.metrics().visit("visit"); visits.visit(request); break;
                case "POST": context.metrics().visit("copy"); visits.copy(request); break;
                case "PUT": context.metrics().visit("update-where"); visits.updateWhere(request); break;
                case "DELETE": context.metrics().visit("delete-where"); visits.deleteWhere(request); break;
                default: throw new IllegalStateException("Unrouted method " + method);
            }
            return;
        }
        switch (method) {
            case "GET": documents.get(request); break;
            case "POST": documents.put(request); break;
            case "PUT": documents.update(request); break;
            case "DELETE": documents.remove(request); break;
            default: throw new IllegalStateException("Unrouted method " + method);
        }
    }

    /**
     * A request that may wait for its answer (its body, a backend call not done when it returns, a visit): answered
     * with 504 at its deadline, and dropped if its client goes away first. One answered before the handler returns
     * needs neither, and registers nothing.
     */
    private void waiting(DocumentRequest request) {
        Exchange exchange = request.exchange();
        exchange.request().addFailureListener(failure -> {
            // The client is gone: drop the operation (its whenDone listeners stop tracking it) and end the exchange.
            if (exchange.takeOver(499))
                exchange.callback().failed(failure);
        });
        deadlines.track(request);
    }

    /**
     * Records a request's status and latency, from its arrival (Jetty's begin time: its headers parsed, so time queued
     * for a thread counts too) to its response's decision, and its body bytes.
     */
    private static final class Timing implements Exchange.Observer {

        private final DocumentApiMetrics metrics;
        private final LongSupplier nanoTime;

        Timing(DocumentApiMetrics metrics, LongSupplier nanoTime) {
            this.metrics = metrics;
            this.nanoTime = nanoTime;
        }

        @Override
        public void decided(int status, long start) {
            metrics.response(status, nanoTime.getAsLong() - start);
        }

        @Override
        public void sent(long bodyBytes) {
            metrics.bytesSent(bodyBytes);
        }

    }

    /** Requests waiting for an answer whose deadlines are watched: those not answered at once. */
    int openRequests() {
        return deadlines.open();
    }

    /**
     * Takes one of the visit slots until the exchange's callback completes, or refuses with 429 if none is free or the
     * client (or connection) holds its share ({@link VisitSlots}); the slot watches the response's writes.
     */
    private void admitVisit(Exchange exchange) {
        VisitSlots.Slot slot = visitSlots.take(claimant(exchange.request()), exchange::abort);
        exchange.watchWrites(slot);
        exchange.whenCompleted(slot::release);
    }

    /** Who a request is from, for the visit slots: its connection, and its {@code <clients>} identity or address. */
    static VisitSlots.Claimant claimant(Request request) {
        Object connection = request.getConnectionMetaData().getConnection();
        Object identity = request.getAttribute(CLIENT_ATTRIBUTE);
        String client = identity != null ? "client '" + identity + "'" : Request.getRemoteAddr(request);
        return new VisitSlots.Claimant(connection != null ? connection : request.getConnectionMetaData(),
                                       client != null ? client : "an unknown address");
    }

    /** Ends visits whose clients stopped reading, every quarter of the stall timeout, until stopped. */
    private void sweepStalledVisits() {
        try {
            visitSlots.sweep();
        }
        catch (RuntimeException e) {
            log.warn("Ending stalled visits failed", e);
        }
        scheduleSweep();
    }

    private synchronized void scheduleSweep() {
        if (sweeping)
            cancelSweep = scheduler.schedule(this::sweepStalledVisits, sweepInterval);
    }

    /** How often visits are checked for stalled clients: a quarter of the stall timeout. */
    static Duration sweepInterval(Duration stallTimeout) {
        return stallTimeout.dividedBy(4);
    }

    /** The visit slots, for tests. */
    VisitSlots visitSlots() {
        return visitSlots;
    }

    private static void timeOut(DocumentRequest request) {
        if (request.respond(DocumentResponses.error(request.pathId(), HttpStatus.GATEWAY_TIMEOUT_504,
                                                    "Timeout after " + request.timeout().toMillis() + "ms")))
            log.debug("Request {} timed out after {}", request.pathId(), request.timeout());
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart(); // starts an own scheduler first
        deadlines.start();
        garbageCollector.start();
        synchronized (this) {
            sweeping = true;
        }
        scheduleSweep();
    }

    @Override
    protected void doStop() throws Exception {
        deadlines.stop();
        garbageCollector.stop();
        synchronized (this) {
            sweeping = false;
            cancelSweep.run();
        }
        super.doStop();
        context.clusters().close();
    }

    /** Options for a {@link DocumentV1ApiHandler}. */
    public static final class Builder {

        private final ContentClusters clusters;
        private final DocumentApiConfig config;
        private Clock clock = SystemUtcClock.instance();
        private LongSupplier nanoTime = System::nanoTime;
        private ToLongFunction<Request> beginNanos = Request::getBeginNanoTime; // on System.nanoTime, as Jetty's
        private TaskScheduler scheduler;
        private VisitLimits visitLimits; // the config's unless set
        private MemoryBudget bodyMemory;
        private MemoryBudget visitMemory;
        private Function<DocumentApiContext, VisitRoutes> visitRoutes = BackendVisitRoutes::new;

        private Builder(ContentClusters clusters, DocumentApiConfig config) {
            this.clusters = Objects.requireNonNull(clusters, "clusters");
            this.config = Objects.requireNonNull(config, "config");
        }

        /** Wall time for deadlines and queue ages; default the system UTC clock. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Monotonic time for latency metrics; default {@link System#nanoTime}, with a request's latency counted from
         * Jetty's {@link Request#getBeginNanoTime}. Another clock counts it from the handler's start, read on it.
         */
        public Builder nanoTime(LongSupplier nanoTime) {
            this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
            this.beginNanos = request -> nanoTime.getAsLong();
            return this;
        }

        /** Runs deadline tasks; default a scheduler thread owned by the handler. */
        public Builder scheduler(TaskScheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * Most visits served at once; more get 429. Default the config's ({@value #DEFAULT_MAX_VISITS}); the
         * per-client and per-connection limits are derived from it ({@link VisitLimits#of}).
         */
        public Builder maxVisits(int maxVisits) {
            return visitLimits(VisitLimits.of(maxVisits, 0, 0, config.visits().stallTimeout()));
        }

        /** How visits are limited and shared; default the config's {@link DocumentApiConfig#visits()}. */
        public Builder visitLimits(VisitLimits visitLimits) {
            this.visitLimits = Objects.requireNonNull(visitLimits, "visitLimits");
            return this;
        }

        /** The memory request bodies share; default {@link MemoryBudget#ofHeap()}. */
        public Builder bodyMemory(MemoryBudget bodyMemory) {
            this.bodyMemory = Objects.requireNonNull(bodyMemory, "bodyMemory");
            return this;
        }

        /** The memory visits share for the batches they read and render; default {@link MemoryBudget#ofHeap()}. */
        public Builder visitMemory(MemoryBudget visitMemory) {
            this.visitMemory = Objects.requireNonNull(visitMemory, "visitMemory");
            return this;
        }

        /** Serves routes 1–4 (visiting and friends); default {@link BackendVisitRoutes}. */
        public Builder visitRoutes(Function<DocumentApiContext, VisitRoutes> visitRoutes) {
            this.visitRoutes = Objects.requireNonNull(visitRoutes, "visitRoutes");
            return this;
        }

        public DocumentV1ApiHandler build() {
            return new DocumentV1ApiHandler(this);
        }

    }

}

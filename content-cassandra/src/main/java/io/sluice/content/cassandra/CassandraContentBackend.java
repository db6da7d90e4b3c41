package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.sluice.content.cassandra.ConditionalWriter.Decision;
import io.sluice.document.Document;
import io.sluice.document.DocumentException;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentTypes;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Visit;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.DocumentSelectionContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ContentBackend} on Apache Cassandra (4.1, 5.0 and compatible servers) through the DataStax/Apache Java
 * driver's async API. One keyspace per content cluster, one table per bucket space, one partition per superbucket
 * (see the module README for the layout and why).
 *
 * <h2>Writes</h2>
 * Every write is a lightweight transaction: the backend reads the current version, decides (condition, create,
 * update), and writes with {@code IF ts = <the timestamp it read>} ({@code null} when there was none). So
 * test-and-set, create-if-nonexistent and read-modify-write updates stay atomic across any number of Sluice
 * containers, and every version's timestamp is strictly greater than its predecessor's. A lost race re-reads at the
 * serial consistency level and decides again. A write whose result is unknown (a timeout, a node dying mid-request)
 * is resolved with a serial read of the attempt id it wrote, so an operation is applied at most once and the client is
 * told whether it was.
 *
 * <h2>Ordering, limits, failures</h2>
 * Operations on one id run one after the other in issue order; others run in parallel, at most
 * {@link CassandraOptions#maxPendingOperations()} at a time (more answer OVERLOAD). Driver failures map to outcomes as
 * {@link Failures} describes. {@link #open} blocks while it connects and creates the schema; nothing else blocks.
 */
public final class CassandraContentBackend implements ContentBackend {

    private final CqlSession session;
    private final boolean ownsSession;
    private final CassandraOptions options;
    private final Schema schema;
    private final DocumentCodec codec;
    private final Clock clock;
    private final ExecutorService executor;
    private final KeyedChains<ChainKey> chains = new KeyedChains<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ConditionalWriter writer;

    private record ChainKey(BucketSpace space, DocumentId id) { }

    private CassandraContentBackend(Builder builder, CqlSession session, boolean ownsSession) {
        this.session = session;
        this.ownsSession = ownsSession;
        this.options = builder.options;
        this.clock = builder.clock;
        this.codec = new DocumentCodec(builder.types);
        this.executor = Executors.newFixedThreadPool(builder.threads, runnable -> {
            Thread thread = new Thread(runnable, "sluice-cassandra-backend");
            thread.setDaemon(true);
            return thread;
        });
        this.schema = Schema.prepare(session, options);
        this.writer = new ConditionalWriter(session, schema, options, clock, executor);
    }

    /**
     * Connects to the cluster {@code options} describe, creates the keyspace and tables if asked to, and returns a
     * backend storing documents of {@code types}, stamped by the system clock. Blocks until connected.
     *
     * @throws com.datastax.oss.driver.api.core.DriverException if no node can be reached or the schema fails
     */
    public static CassandraContentBackend open(CassandraOptions options, DocumentTypes types) {
        return builder(options, types).build();
    }

    /** A builder for a backend with {@code options} storing {@code types}. */
    public static Builder builder(CassandraOptions options, DocumentTypes types) {
        return new Builder(options, types);
    }

    /** A new session for {@code options}: their contact points, data center, consistency levels and timeouts. */
    static CqlSession connect(CassandraOptions options) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, options.requestTimeout())
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, options.consistency().name())
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, options.serialConsistency().name())
                .withString(DefaultDriverOption.REQUEST_THROTTLER_CLASS, "ConcurrencyLimitingRequestThrottler")
                .withInt(DefaultDriverOption.REQUEST_THROTTLER_MAX_CONCURRENT_REQUESTS, 512)
                .withInt(DefaultDriverOption.REQUEST_THROTTLER_MAX_QUEUE_SIZE, 2 * options.maxPendingOperations())
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_SET_KEYSPACE_TIMEOUT, Duration.ofSeconds(10))
                .withBoolean(DefaultDriverOption.REQUEST_WARN_IF_SET_KEYSPACE, false)
                .build();
        return CqlSession.builder()
                         .addContactPoints(options.contactPoints())
                         .withLocalDatacenter(options.localDatacenter())
                         .withConfigLoader(config)
                         .build();
    }

    @Override
    public CompletableFuture<Outcome> put(Document document, OperationOptions op) {
        DocumentId id = document.id();
        Optional<DocumentSelection> condition = op.condition();
        return submit(id, op, "put of '" + id + "'", () -> {
            byte[] body = codec.encode(document);
            return writer.write(id, op, "put of '" + id + "'", current -> {
                boolean found = current != null && current.isLive();
                if (condition.isPresent()) {
                    if (found && !holds(condition.get(), codec.decode(id, current))) {
                        return Decision.finish(conditionNotMet(condition.get(), id));
                    }
                    if (!found && !op.createIfNonExistent()) {
                        return Decision.finish(conditionOnMissing(condition.get(), id));
                    }
                }
                return Decision.put(body, found);
            });
        });
    }

    @Override
    public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions op) {
        Objects.requireNonNull(fields, "fields");
        String what = "get of '" + id + "'";
        return submit(id, op, what, () -> writer.read(id, op, options.consistency()).thenApplyAsync(current -> {
            if (current == null || !current.isLive()) {
                return Outcome.notFound("Document '" + id + "' not found");
            }
            Document document = codec.decode(id, current);
            Optional<DocumentSelection> condition = op.condition();
            if (condition.isPresent() && !holds(condition.get(), document)) {
                return conditionNotMet(condition.get(), id);
            }
            return Outcome.found(fields.filter(document), current.timestamp());
        }, executor));
    }

    @Override
    public CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions op) {
        DocumentId id = update.id();
        boolean create = update.createIfNonExistent() || op.createIfNonExistent();
        Optional<DocumentSelection> condition = op.condition();
        String what = "update of '" + id + "'";
        return submit(id, op, what, () -> writer.write(id, op, what, current -> {
            if (current != null && current.isLive()) {
                Document previous = codec.decode(id, current);
                if (condition.isPresent() && !holds(condition.get(), previous)) {
                    return Decision.finish(conditionNotMet(condition.get(), id));
                }
                return Decision.put(codec.encode(update.applyTo(previous)), true);
            }
            if (create) {
                return Decision.put(codec.encode(update.applyTo(Document.of(update.type(), id))), false);
            }
            return Decision.finish(condition.isPresent() ? conditionOnMissing(condition.get(), id)
                                                         : Outcome.missing());
        }));
    }

    @Override
    public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions op) {
        Optional<DocumentSelection> condition = op.condition();
        String what = "remove of '" + id + "'";
        return submit(id, op, what, () -> writer.write(id, op, what, current -> {
            boolean found = current != null && current.isLive();
            if (condition.isPresent()) {
                if (!found) {
                    return Decision.finish(conditionOnMissing(condition.get(), id));
                }
                if (!holds(condition.get(), codec.decode(id, current))) {
                    return Decision.finish(conditionNotMet(condition.get(), id));
                }
            }
            return found ? Decision.tombstone() : Decision.finish(Outcome.missing());
        }));
    }

    /**
     * {@inheritDoc} A visit without explicit buckets reads its slice's superbuckets, which are partitions, in visiting
     * order, so N slices read N disjoint shares of the data in parallel; one with explicit buckets reads just their
     * partitions.
     */
    @Override
    public Visit visit(VisitSpec spec) {
        VisitPlan plan = VisitPlan.of(spec, options.distributionBits());
        return new CassandraVisit(session, schema.of(spec.bucketSpace()), plan, spec, options, codec, clock,
                                  executor, closed::get);
    }

    /** Admission, per-id ordering and failure mapping around {@code operation}. */
    private CompletableFuture<Outcome> submit(DocumentId id, OperationOptions op, String what,
                                              java.util.function.Supplier<CompletableFuture<Outcome>> operation) {
        if (closed.get()) {
            return CompletableFuture.completedFuture(closedOutcome());
        }
        if (missed(op.deadline())) {
            return CompletableFuture.completedFuture(timedOut(what, op.deadline()));
        }
        if (pending.incrementAndGet() > options.maxPendingOperations()) {
            pending.decrementAndGet();
            return CompletableFuture.completedFuture(Outcome.overload(
                    "Rejecting " + what + ": " + options.maxPendingOperations() + " operations already pending"));
        }
        return chains.add(new ChainKey(op.bucketSpace(), id), () -> {
            if (closed.get()) {
                return CompletableFuture.completedFuture(closedOutcome());
            }
            if (missed(op.deadline())) {
                return CompletableFuture.completedFuture(timedOut(what, op.deadline()));
            }
            return operation.get();
        }).handle((outcome, failure) -> {
            pending.decrementAndGet();
            if (failure == null) {
                return outcome;
            }
            Throwable cause = Failures.unwrap(failure);
            if (cause instanceof DocumentException) {
                return Outcome.error(cause.getMessage());
            }
            return Failures.outcome(cause, what);
        });
    }

    private boolean missed(Instant deadline) {
        return clock.instant().isAfter(deadline);
    }

    private boolean holds(DocumentSelection condition, Document document) {
        return condition.matches(DocumentSelectionContext.of(document), clock);
    }

    private static Outcome timedOut(String what, Instant deadline) {
        return Outcome.timeout(what + " timed out: deadline " + deadline + " passed");
    }

    private static Outcome closedOutcome() {
        return Outcome.error("The Cassandra content backend is closed");
    }

    private static Outcome conditionNotMet(DocumentSelection condition, DocumentId id) {
        return Outcome.conditionFailed("Condition '" + condition + "' is not met by document '" + id + "'");
    }

    private static Outcome conditionOnMissing(DocumentSelection condition, DocumentId id) {
        return Outcome.conditionFailed("Condition '" + condition + "' is not met: document '" + id
                                       + "' does not exist");
    }

    /**
     * Stops accepting operations and releases the backend's threads and, unless it was given one, its session.
     * Operations in flight complete; later ones answer ERROR. Idempotent.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            executor.shutdown();
            if (ownsSession) {
                session.close();
            }
        }
    }

    /** Configures a {@link CassandraContentBackend}; not thread-safe. */
    public static final class Builder {

        private final CassandraOptions options;
        private final DocumentTypes types;
        private Clock clock = Clock.systemUTC();
        private CqlSession session;
        private int threads = 2;

        private Builder(CassandraOptions options, DocumentTypes types) {
            this.options = Objects.requireNonNull(options, "options");
            this.types = Objects.requireNonNull(types, "types");
        }

        /** The clock for timestamps, deadlines and {@code now()} in selections; the system UTC clock by default. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Uses {@code session} instead of connecting; the backend will not close it. The session's own settings
         * (consistency, timeouts) then apply where the backend does not set them per statement.
         */
        public Builder session(CqlSession session) {
            this.session = Objects.requireNonNull(session, "session");
            return this;
        }

        /** Threads that decode, evaluate conditions and apply updates; 2 by default. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be positive, but was " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** Connects (unless given a session), prepares the schema and statements; blocks until done. */
        public CassandraContentBackend build() {
            if (session != null) {
                return new CassandraContentBackend(this, session, false);
            }
            CqlSession own = connect(options);
            try {
                return new CassandraContentBackend(this, own, true);
            } catch (RuntimeException e) {
                own.close();
                throw e;
            }
        }

    }

}

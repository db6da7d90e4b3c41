package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentTypes;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.OperationName;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.OperationSequencer;
import io.sluice.content.Outcome;
import io.sluice.content.Visit;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.content.Version;
import io.sluice.content.WriteRules;
import io.sluice.content.SystemUtcClock;
import io.sluice.document.select.ParentDocuments;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A {@link ContentBackend} on Apache Cassandra (4.1, 5.0 and compatible servers) through the DataStax/Apache Java
 * driver's async API. One keyspace per content cluster, one table per bucket space, one partition per superbucket
 * (see the module README for the layout and why).
 *
 * <h2>Writes</h2>
 * A put or remove without a condition is, in the default {@code write-mode="timestamped"}, one plain write with a
 * Cassandra timestamp from this container's clock: no read, no Paxos, safe to send again; its outcome does not know
 * whether the document existed. Every other write (and every write in {@code write-mode="strict"}) is a lightweight
 * transaction: the backend reads the current version, decides (condition, create, update), and writes with
 * {@code IF ts = <the timestamp it read>} ({@code null} when there was none). So test-and-set, create-if-nonexistent
 * and read-modify-write updates stay atomic across any number of Sluice containers. The {@link WriteClock} keeps the
 * two kinds in order on a document as long as the clocks are within {@code max-clock-skew}, which {@link #open}
 * checks. The {@link io.sluice.content.WriteRules} make the decisions. A lost race re-reads at the serial consistency
 * level and decides again. A transaction whose result is unknown (a timeout, a node dying mid-request) is resolved
 * with a serial read of the attempt id it wrote, so an operation is applied at most once and the client is told
 * whether it was (or gets a 504 when that cannot be told).
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
    private final OperationSequencer sequencer;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ConditionalWriter writer;
    private final Map<BucketSpace, VisitStatements> visitStatements;

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
        CommitLogCheck.check(session, options.requireSyncedCommitlog());
        PartitionTokens.of(session); // visits need the Murmur3 token map: say so at start-up, not on the first visit
        WriteClock writeClock = new WriteClock(builder.writeClock, options.maxClockSkew());
        if (options.writeMode() == CassandraOptions.WriteMode.TIMESTAMPED) {
            ClockSkewCheck.check(session, writeClock, options.maxClockSkew());
        }
        this.writer = new ConditionalWriter(session, schema, options, codec, clock, writeClock, executor,
                                            Pauses.on(executor));
        this.visitStatements = VisitStatements.prepare(session, options.keyspace());
        this.sequencer = new OperationSequencer("Cassandra", clock, options.maxPendingOperations(), closed::get,
                                                (what, failure) -> Failures.outcome(Failures.unwrap(failure), what));
    }

    /**
     * Connects to the cluster {@code options} describe, creates the keyspace and tables if asked to, and returns a
     * backend storing documents of {@code types}, stamped by the system clock. Blocks until connected.
     *
     * @throws com.datastax.oss.driver.api.core.DriverException if no node can be reached or the schema fails
     * @throws InvalidCassandraOptionException if the keyspace has other distribution bits, if require-synced-commitlog
     *                                         is set and a node acknowledges before fsyncing, or with timestamped
     *                                         writes, a node's clock is further from this one than max-clock-skew
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
        OperationName what = new OperationName("put", id);
        if (writesWithoutRead(op)) {
            return submit(id, op, what, () -> writer.writePlain(id, op, what, WriteRules.putWithoutRead(document, op)));
        }
        return submit(id, op, what, () -> writer.write(id, op, what,
                                                       previous -> WriteRules.put(document, previous, op, clock,
                                                                                 parents(op))));
    }

    @Override
    public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions op) {
        Objects.requireNonNull(fields, "fields");
        OperationName what = new OperationName("get", id);
        if (op.condition().isPresent()) { // a condition may read parents, which must not block a driver thread
            return submit(id, op, what, () -> writer.get(id, op, options.getConsistency()).thenApplyAsync(
                    current -> WriteRules.get(id, codec.version(id, current), fields, op, clock, parents(op)), executor));
        }
        // Answered on the driver's thread that completes the read: deciding takes microseconds, and a hop to the
        // backend's threads cost more than that in wake-ups.
        return submit(id, op, what, () -> writer.get(id, op, options.getConsistency()).thenApply(
                current -> WriteRules.get(id, codec.version(id, current), fields, op, clock)));
    }

    @Override
    public CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions op) {
        DocumentId id = update.id();
        OperationName what = new OperationName("update", id);
        return submit(id, op, what, () -> writer.write(id, op, what,
                                                       previous -> WriteRules.update(update, previous, op, clock,
                                                                                    parents(op))));
    }

    @Override
    public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions op) {
        OperationName what = new OperationName("remove", id);
        if (writesWithoutRead(op)) {
            return submit(id, op, what, () -> writer.writePlain(id, op, what, WriteRules.removeWithoutRead(id, op)));
        }
        return submit(id, op, what, () -> writer.write(id, op, what,
                                                       previous -> WriteRules.remove(id, previous, op, clock,
                                                                                    parents(op))));
    }

    /** Whether a put or remove with {@code op} is one plain write: no condition, and timestamped writes. */
    private boolean writesWithoutRead(OperationOptions op) {
        return options.writeMode() == CassandraOptions.WriteMode.TIMESTAMPED && !WriteRules.needsDocument(op);
    }

    /**
     * {@inheritDoc} A visit without explicit buckets scans its slice's range of the token ring, so N slices read N
     * disjoint shares of the data in parallel, partitions in token order; one with explicit buckets reads just their
     * clustering ranges, in visiting order.
     */
    @Override
    public Visit visit(VisitSpec spec) {
        VisitPlan plan = VisitPlan.of(spec, options.distributionBits());
        return new CassandraVisit(session, visitStatements.get(spec.bucketSpace()), PartitionTokens.of(session), plan,
                                  spec, options, codec, clock, executor,
                                  parentId -> parent(parentId, clock.instant().plus(options.requestTimeout())),
                                  closed::get);
    }

    /**
     * Selections and conditions read imported fields from the global documents. The reads wait on the backend's own
     * threads, where conditions are decided and visits with a selection read their rows, never on a driver thread.
     */
    @Override
    public boolean followsReferences() {
        return true;
    }

    /** The parents a condition of {@code op} reads imported fields from, each read by its deadline. */
    private ParentDocuments parents(OperationOptions op) {
        return parentId -> parent(parentId, op.deadline());
    }

    /** Reads global document {@code id} now, at the backend's consistency level; waits for the answer. */
    private Optional<Document> parent(DocumentId id, Instant deadline) {
        OperationOptions read = OperationOptions.until(deadline).withBucketSpace(BucketSpace.GLOBAL);
        Version version = codec.version(id, writer.get(id, read, options.consistency()).join());
        return Version.isLive(version) ? Optional.of(version.document()) : Optional.empty();
    }

    /** Admission, per-id ordering and failure mapping around {@code operation}. */
    private CompletableFuture<Outcome> submit(DocumentId id, OperationOptions op, OperationName what,
                                              Supplier<CompletableFuture<Outcome>> operation) {
        return sequencer.run(new ChainKey(op.bucketSpace(), id), what, op.deadline(), operation);
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
        private Clock clock = SystemUtcClock.instance();
        private Clock writeClock = SystemUtcClock.instance();
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
         * The clock of plain writes' Cassandra timestamps ({@code USING TIMESTAMP}), which must agree with the
         * Cassandra nodes' clocks within {@code max-clock-skew}; the system UTC clock by default. Separate from
         * {@link #clock} so that tests can set the documents' timestamps without breaking the order of writes.
         */
        public Builder writeClock(Clock clock) {
            this.writeClock = Objects.requireNonNull(clock, "clock");
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

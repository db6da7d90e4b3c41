package io.sluice.content.memory;

import io.sluice.document.Document;
import io.sluice.document.DocumentException;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentBackend;
import io.sluice.content.ContentStatistics;
import io.sluice.content.DocumentKey;
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
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ContentBackend} that keeps the newest version of every document in memory, per bucket space in a map sorted
 * in {@linkplain DocumentKey visiting order}. Meant for tests, development and small deployments; nothing survives
 * {@link #close()}.
 *
 * <p>Operations run on an executor, serialised per document id by a striped queue, so they never block the caller and
 * operations on one id apply in issue order. Optional limits make it answer INSUFFICIENT_STORAGE (live documents or
 * their estimated bytes) and OVERLOAD (operations issued but not completed).
 */
public final class InMemoryContentBackend implements ContentBackend {

    private static final int STRIPES = 64;
    private static final AtomicInteger THREAD_COUNTER = new AtomicInteger();

    private final Clock clock;
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    private final KeyedSerialExecutor serial;
    private final Map<BucketSpace, ConcurrentNavigableMap<DocumentKey, StoredEntry>> spaces =
            new EnumMap<>(BucketSpace.class);
    private final Capacity capacity;
    private final int maxPendingOperations;
    private final AtomicInteger pending = new AtomicInteger();
    private final long tombstoneRetentionMicros;
    private final int distributionBits;
    private final AtomicBoolean closed = new AtomicBoolean();

    private InMemoryContentBackend(Builder builder) {
        this.clock = builder.clock;
        this.ownedExecutor = builder.executor == null ? Executors.newFixedThreadPool(builder.threads, daemonThreads())
                                                      : null;
        this.executor = builder.executor == null ? ownedExecutor : builder.executor;
        this.serial = new KeyedSerialExecutor(executor, STRIPES);
        this.capacity = new Capacity(builder.maxDocuments, builder.maxBytes);
        this.maxPendingOperations = builder.maxPendingOperations;
        this.tombstoneRetentionMicros = saturatedMicros(builder.tombstoneRetention);
        this.distributionBits = builder.distributionBits;
        for (BucketSpace space : BucketSpace.values()) {
            spaces.put(space, new ConcurrentSkipListMap<>());
        }
    }

    private static ThreadFactory daemonThreads() {
        return task -> {
            Thread thread = new Thread(task, "sluice-memory-backend-" + THREAD_COUNTER.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A builder with the system UTC clock, an own thread pool, 16 distribution bits and no limits. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public CompletableFuture<Outcome> put(Document document, OperationOptions options) {
        return submit(document.id(), options, store -> {
            DocumentKey key = DocumentKey.of(document.id());
            StoredEntry previous = store.get(key);
            boolean found = previous != null && previous.isLive();
            Optional<DocumentSelection> condition = options.condition();
            if (condition.isPresent()) {
                if (found && !holds(condition.get(), previous.document())) {
                    return conditionNotMet(condition.get(), document.id());
                }
                if (!found && !options.createIfNonExistent()) {
                    return conditionOnMissing(condition.get(), document.id());
                }
            }
            return write(store, key, previous, document);
        });
    }

    @Override
    public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions options) {
        Objects.requireNonNull(fields, "fields");
        return submit(id, options, store -> {
            StoredEntry entry = store.get(DocumentKey.of(id));
            if (entry == null || !entry.isLive()) {
                return Outcome.notFound("Document '" + id + "' not found");
            }
            Optional<DocumentSelection> condition = options.condition();
            if (condition.isPresent() && !holds(condition.get(), entry.document())) {
                return conditionNotMet(condition.get(), id);
            }
            return Outcome.found(fields.filter(entry.document()), entry.timestamp());
        });
    }

    @Override
    public CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions options) {
        DocumentId id = update.id();
        boolean create = update.createIfNonExistent() || options.createIfNonExistent();
        return submit(id, options, store -> {
            DocumentKey key = DocumentKey.of(id);
            StoredEntry previous = store.get(key);
            Optional<DocumentSelection> condition = options.condition();
            if (previous != null && previous.isLive()) {
                if (condition.isPresent() && !holds(condition.get(), previous.document())) {
                    return conditionNotMet(condition.get(), id);
                }
                return write(store, key, previous, update.applyTo(previous.document()));
            }
            if (create) {
                return write(store, key, previous, update.applyTo(Document.of(update.type(), id)));
            }
            return condition.isPresent() ? conditionOnMissing(condition.get(), id) : Outcome.missing();
        });
    }

    @Override
    public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options) {
        return submit(id, options, store -> {
            DocumentKey key = DocumentKey.of(id);
            StoredEntry previous = store.get(key);
            boolean found = previous != null && previous.isLive();
            Optional<DocumentSelection> condition = options.condition();
            if (condition.isPresent()) {
                if (!found) {
                    return conditionOnMissing(condition.get(), id);
                }
                if (!holds(condition.get(), previous.document())) {
                    return conditionNotMet(condition.get(), id);
                }
            }
            if (!found) {
                return Outcome.missing();
            }
            long timestamp = nextTimestamp(previous);
            capacity.tryChange(-1, -previous.bytes());
            store.put(key, StoredEntry.tombstone(id, previous.type(), timestamp));
            return Outcome.written(timestamp, true);
        });
    }

    /**
     * {@inheritDoc} Batches are read on the backend's executor; one call scans a bounded number of entries.
     */
    @Override
    public Visit visit(VisitSpec spec) {
        VisitPlan plan = VisitPlan.of(spec, distributionBits);
        return new InMemoryVisit(spaces.get(spec.bucketSpace()), plan, spec, clock, executor, this::isExpired, closed::get);
    }

    /** Writes {@code document} over {@code previous} (which may be a tombstone or null), if there is room. */
    private Outcome write(Map<DocumentKey, StoredEntry> store, DocumentKey key, StoredEntry previous,
                          Document document) {
        boolean found = previous != null && previous.isLive();
        long bytes = DocumentSizes.estimate(document);
        if (!capacity.tryChange(found ? 0 : 1, bytes - (found ? previous.bytes() : 0))) {
            return Outcome.insufficientStorage("Cannot store document '" + document.id() + "': the in-memory store "
                                               + "holds " + capacity.documents() + " documents of "
                                               + capacity.bytes() + " bytes, and is limited to "
                                               + capacity.describeLimits());
        }
        long timestamp = nextTimestamp(previous);
        store.put(key, StoredEntry.live(document, timestamp, bytes));
        return Outcome.written(timestamp, found);
    }

    /** An operation on the entries of one bucket space, run serialised with the other operations on its id. */
    @FunctionalInterface
    private interface Operation {
        Outcome apply(ConcurrentNavigableMap<DocumentKey, StoredEntry> store);
    }

    private CompletableFuture<Outcome> submit(DocumentId id, OperationOptions options, Operation operation) {
        if (closed.get()) {
            return CompletableFuture.completedFuture(closedOutcome());
        }
        if (missed(options.deadline())) {
            return CompletableFuture.completedFuture(timedOut(id, options.deadline()));
        }
        if (pending.incrementAndGet() > maxPendingOperations) {
            pending.decrementAndGet();
            return CompletableFuture.completedFuture(Outcome.overload(
                    "Rejecting operation on '" + id + "': " + maxPendingOperations + " operations already pending"));
        }
        CompletableFuture<Outcome> result = new CompletableFuture<>();
        serial.execute(id, () -> {
            Outcome outcome;
            try {
                if (closed.get()) {
                    outcome = closedOutcome();
                } else if (missed(options.deadline())) {
                    outcome = timedOut(id, options.deadline());
                } else {
                    outcome = operation.apply(spaces.get(options.bucketSpace()));
                }
            } catch (DocumentException e) {
                outcome = Outcome.error(e.getMessage());
            } catch (RuntimeException e) {
                outcome = Outcome.error("Unexpected failure on '" + id + "': " + e);
            }
            pending.decrementAndGet();
            result.complete(outcome);
        });
        return result;
    }

    private boolean missed(Instant deadline) {
        return clock.instant().isAfter(deadline);
    }

    private static Outcome timedOut(DocumentId id, Instant deadline) {
        return Outcome.timeout("Operation on '" + id + "' timed out: deadline " + deadline + " passed");
    }

    private static Outcome closedOutcome() {
        return Outcome.error("The in-memory content backend is closed");
    }

    private boolean holds(DocumentSelection condition, Document document) {
        return condition.matches(DocumentSelectionContext.of(document), clock);
    }

    private static Outcome conditionNotMet(DocumentSelection condition, DocumentId id) {
        return Outcome.conditionFailed("Condition '" + condition + "' is not met by document '" + id + "'");
    }

    private static Outcome conditionOnMissing(DocumentSelection condition, DocumentId id) {
        return Outcome.conditionFailed("Condition '" + condition + "' is not met: document '" + id
                                       + "' does not exist");
    }

    /** Now in microseconds, but always after the previous version's timestamp. */
    private long nextTimestamp(StoredEntry previous) {
        long now = nowMicros();
        return previous == null ? now : Math.max(now, previous.timestamp() + 1);
    }

    private long nowMicros() {
        Instant now = clock.instant();
        return Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000);
    }

    /** Whether a tombstone has outlived the retention period and may be forgotten. */
    private boolean isExpired(StoredEntry entry) {
        if (entry.isLive()) {
            return false;
        }
        return nowMicros() - entry.timestamp() > tombstoneRetentionMicros;
    }

    private static long saturatedMicros(Duration duration) {
        try {
            return Math.addExact(Math.multiplyExact(duration.getSeconds(), 1_000_000L), duration.getNano() / 1_000);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * {@inheritDoc} Reports live documents, their estimated bytes as stored bytes, and pending operations; none once
     * closed.
     */
    @Override
    public Map<String, Number> statistics() {
        if (closed.get()) {
            return Map.of();
        }
        Map<String, Number> figures = new LinkedHashMap<>();
        figures.put(ContentStatistics.DOCUMENTS, capacity.documents());
        figures.put(ContentStatistics.STORED_BYTES, capacity.bytes());
        figures.put(ContentStatistics.PENDING_OPERATIONS, pending.get());
        return figures;
    }

    /** Stops accepting operations and, if it made its own thread pool, shuts that down. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && ownedExecutor != null) {
            ownedExecutor.shutdown();
        }
    }

    /** Configures an {@link InMemoryContentBackend}; not thread-safe. */
    public static final class Builder {

        private Clock clock = Clock.systemUTC();
        private Executor executor;
        private int threads = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private long maxDocuments = Long.MAX_VALUE;
        private long maxBytes = Long.MAX_VALUE;
        private int maxPendingOperations = Integer.MAX_VALUE;
        private Duration tombstoneRetention = Duration.ofDays(14);
        private int distributionBits = 16;

        private Builder() { }

        /** The clock for timestamps, deadlines, tombstone expiry and {@code now()} in selections. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Runs operations and visit reads on {@code executor}, which the backend will not shut down. */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** Size of the backend's own thread pool, when no executor is given. */
        public Builder threads(int threads) {
            this.threads = (int) requirePositive("threads", threads);
            return this;
        }

        /** Most live documents; a put or create beyond it answers INSUFFICIENT_STORAGE. */
        public Builder maxDocuments(long maxDocuments) {
            this.maxDocuments = requirePositive("maxDocuments", maxDocuments);
            return this;
        }

        /** Most estimated bytes of live documents; a write beyond it answers INSUFFICIENT_STORAGE. */
        public Builder maxBytes(long maxBytes) {
            this.maxBytes = requirePositive("maxBytes", maxBytes);
            return this;
        }

        /** Most operations issued but not completed; one more answers OVERLOAD at once. */
        public Builder maxPendingOperations(int maxPendingOperations) {
            this.maxPendingOperations = (int) requirePositive("maxPendingOperations", maxPendingOperations);
            return this;
        }

        /** How long tombstones are kept (and returned by visits with removes); default 14 days. */
        public Builder tombstoneRetention(Duration retention) {
            if (retention.isNegative()) {
                throw new IllegalArgumentException("tombstoneRetention must not be negative, but was " + retention);
            }
            this.tombstoneRetention = retention;
            return this;
        }

        /** Distribution bits: visits walk {@code 2^bits} superbuckets, and slices are made of them. 1..32. */
        public Builder distributionBits(int distributionBits) {
            if (distributionBits < 1 || distributionBits > 32) {
                throw new IllegalArgumentException("distributionBits must be in [1, 32], but was " + distributionBits);
            }
            this.distributionBits = distributionBits;
            return this;
        }

        private static long requirePositive(String name, long value) {
            if (value < 1) {
                throw new IllegalArgumentException(name + " must be positive, but was " + value);
            }
            return value;
        }

        public InMemoryContentBackend build() {
            return new InMemoryContentBackend(this);
        }

    }

}

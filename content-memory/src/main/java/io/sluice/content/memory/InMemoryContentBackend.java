package io.sluice.content.memory;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.BucketSpace;
import io.sluice.document.select.ParentDocuments;
import io.sluice.content.ContentBackend;
import io.sluice.content.ContentStatistics;
import io.sluice.content.Decision;
import io.sluice.content.DocumentKey;
import io.sluice.content.OperationOptions;
import io.sluice.content.OperationName;
import io.sluice.content.OperationSequencer;
import io.sluice.content.Outcome;
import io.sluice.content.Timestamps;
import io.sluice.content.Version;
import io.sluice.content.Visit;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.content.WriteRules;
import io.sluice.content.SystemUtcClock;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ContentBackend} that keeps the newest version of every document in memory, per bucket space in a map sorted
 * in {@linkplain DocumentKey visiting order}. Meant for tests, development and small deployments; nothing survives
 * {@link #close()}.
 *
 * <p>Operations are a map lookup and a write, so they run on the caller's thread, one at a time per document under a
 * lock striped by the document's key, and return done (a get that has no fields' JSON to keep reads the newest entry
 * without the lock); unless the builder was given an executor to run them on: then
 * they run there in issue order per document ({@link OperationSequencer}). Visit batches run on the executor. The
 * {@link WriteRules} decide what each does. It reads every previous version (a map lookup), so
 * {@link Outcome#found()} is always known. Optional limits make it answer INSUFFICIENT_STORAGE (live documents or
 * their estimated bytes) and OVERLOAD (operations issued but not completed).
 */
public final class InMemoryContentBackend implements ContentBackend {

    private static final AtomicInteger THREAD_COUNTER = new AtomicInteger();
    /**
     * Locks operations on the caller's thread are striped over: two documents share one by chance only, and then wait
     * for each other's map lookup and write. A power of two.
     */
    private static final int STRIPES = 1024;

    private final Clock clock;
    private final Executor executor;
    private final boolean queued; // operations go through an executor's queue rather than running on the caller's thread
    private final Object[] stripes; // unless queued: operations on one document hold one of these while they run
    private final ExecutorService ownedExecutor;
    private final OperationSequencer sequencer;
    private final Map<BucketSpace, Space> spaces = new EnumMap<>(BucketSpace.class);
    private final ParentDocuments parents = this::parent;
    private final Capacity capacity;
    private final long tombstoneRetentionMicros;
    private final int distributionBits;
    private final AtomicBoolean closed = new AtomicBoolean();

    private InMemoryContentBackend(Builder builder) {
        this.clock = builder.clock;
        this.ownedExecutor = builder.executor == null ? Executors.newFixedThreadPool(builder.threads, daemonThreads())
                                                      : null;
        this.executor = builder.executor == null ? ownedExecutor : builder.executor;
        this.queued = builder.executor != null;
        this.stripes = new Object[STRIPES];
        Arrays.setAll(stripes, __ -> new Object());
        this.sequencer = new OperationSequencer("in-memory", clock, builder.maxPendingOperations, closed::get,
                                                (what, failure) -> Outcome.error("Unexpected failure of " + what + ": "
                                                                                 + failure));
        this.capacity = new Capacity(builder.maxDocuments, builder.maxBytes);
        this.tombstoneRetentionMicros = Timestamps.micros(builder.tombstoneRetention);
        this.distributionBits = builder.distributionBits;
        for (BucketSpace space : BucketSpace.values()) {
            spaces.put(space, new Space(new ConcurrentHashMap<>(), new ConcurrentSkipListMap<>()));
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
        DocumentId id = document.id();
        return submit(id, new OperationName("put", id), options, (space, slot, previous) -> {
            Decision decision = WriteRules.put(document, previous, options, clock, parents);
            return decision.isAnswer() ? decision.answer() : write(space, id, slot, decision);
        });
    }

    @Override
    public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions options) {
        Objects.requireNonNull(fields, "fields");
        boolean whole = fields.isEveryField() && options.condition().isEmpty();
        return read(id, new OperationName("get", id), options, whole,
                    current -> WriteRules.get(id, current, fields, options, clock, parents));
    }

    @Override
    public CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions options) {
        DocumentId id = update.id();
        return submit(id, new OperationName("update", id), options, (space, slot, previous) -> {
            Decision decision = WriteRules.update(update, previous, options, clock, parents);
            return decision.isAnswer() ? decision.answer() : write(space, id, slot, decision);
        });
    }

    @Override
    public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options) {
        return submit(id, new OperationName("remove", id), options, (space, slot, previous) -> {
            Decision decision = WriteRules.remove(id, previous, options, clock, parents);
            return decision.isAnswer() ? decision.answer() : write(space, id, slot, decision);
        });
    }

    /**
     * {@inheritDoc} Batches are read on the backend's executor; one call scans a bounded number of entries.
     */
    @Override
    public Visit visit(VisitSpec spec) {
        VisitPlan plan = VisitPlan.of(spec, distributionBits);
        return new InMemoryVisit(spaces.get(spec.bucketSpace()).ordered(), plan, spec, clock, executor, this::isExpired,
                                 slot -> forget(spec.bucketSpace(), slot), parents, closed::get);
    }

    /** Parents are global documents: imported fields are read from the global bucket space. */
    @Override
    public boolean followsReferences() {
        return true;
    }

    /** The newest version of a global document, as a selection's imported fields see it. */
    private Optional<Document> parent(DocumentId id) {
        Slot slot = spaces.get(BucketSpace.GLOBAL).byId().get(id.toString());
        StoredEntry entry = slot == null ? null : slot.entry();
        return entry != null && entry.isLive() ? Optional.of(entry.document()) : Optional.empty();
    }

    /**
     * Writes what {@code decision} says over the version in {@code slot} (a live version, a tombstone, or no slot): a document if
     * there is room, or a tombstone.
     */
    private Outcome write(Space space, DocumentId id, Slot slot, Decision decision) {
        StoredEntry previous = slot == null ? null : slot.entry();
        boolean found = Version.isLive(previous);
        long timestamp = Timestamps.after(clock, previous);
        if (decision.isTombstone()) {
            capacity.tryChange(-1, -previous.storedBytes());
            slot.set(StoredEntry.tombstone(previous.id(), previous.type(), timestamp)); // a tombstone has a previous version
            return decision.written(timestamp);
        }
        Document document = decision.document();
        long bytes = DocumentSizes.estimate(document);
        if (!capacity.tryChange(found ? 0 : 1, bytes - (found ? previous.storedBytes() : 0))) {
            return Outcome.insufficientStorage("Cannot store document '" + document.id() + "': the in-memory store "
                                               + "holds " + capacity.documents() + " documents of "
                                               + capacity.bytes() + " bytes, and is limited to "
                                               + capacity.describeLimits());
        }
        // The new version keeps the first version's id objects, and its own become garbage at once.
        if (previous != null)
            document = document.withIdInstance(previous.id());
        StoredEntry entry = StoredEntry.live(document, timestamp, bytes);
        if (slot != null) {
            slot.set(entry);
        } else {
            Slot added = new Slot(DocumentKey.of(id), entry);
            space.byId().put(id.toString(), added);
            space.ordered().put(added.key(), added);
        }
        return decision.written(timestamp);
    }

    /** A read of the newest entry of one document. */
    @FunctionalInterface
    private interface Read {
        /** @param current the newest entry, null if the space holds no version of the document */
        Outcome answer(StoredEntry current);
    }

    /** An operation on the newest entry of one document, run serialised with the other operations on it. */
    @FunctionalInterface
    private interface Operation {
        /** @param slot the document's slot, null if the space holds no version of it */
        Outcome apply(Space space, Slot slot, StoredEntry current);
    }

    /**
     * One bucket space's documents: every slot is in both maps, {@code byId} for operations on one document,
     * {@code ordered} for visits. {@code byId} is keyed by the id's text, whose hash and equality the id's are: a
     * lookup then reads the stored key's string, not an id object and then its string (one cache miss fewer per get,
     * on a store larger than the cache).
     */
    private record Space(ConcurrentHashMap<String, Slot> byId, ConcurrentNavigableMap<DocumentKey, Slot> ordered) { }

    private record SequenceKey(BucketSpace space, DocumentId id) { }

    /**
     * Answers {@code read} for the document's newest entry, first keeping that entry's fields as JSON if the read is of
     * the {@code whole} document. Only the keeping needs the document's lock (or, queued, its turn): unless queued, an
     * entry with nothing to keep is read as it is, without the lock. Taking the lock writes its cache line, which the
     * last operation on the document left in either core's cache; reading without it took 0.16 µs less server CPU per
     * GET in an A/B run (h2c 4 × 256, 61ac7d9, 2026-12-02), within that run's noise. Such a read sees the entry of the last
     * write that completed, as a get ordered after it would; one racing a write sees either entry, as either order
     * would.
     */
    private CompletableFuture<Outcome> read(DocumentId id, OperationName what, OperationOptions options, boolean whole,
                                            Read read) {
        if (queued)
            return submit(id, what, options, (space, slot, current) -> read.answer(keep(whole, current)));
        return CompletableFuture.completedFuture(sequencer.runNow(what, options.deadline(), () -> {
            Slot slot = spaces.get(options.bucketSpace()).byId().get(id.toString());
            StoredEntry current = slot == null ? null : slot.entry();
            if ( ! whole || current == null || ! current.needsFieldsJson())
                return read.answer(current);
            synchronized (stripe(options.bucketSpace(), id)) {
                slot = spaces.get(options.bucketSpace()).byId().get(id.toString());
                return read.answer(keep(true, slot == null ? null : slot.entry()));
            }
        }));
    }

    /** {@code current}, having kept its fields as JSON if {@code whole}; call in the document's order. */
    private StoredEntry keep(boolean whole, StoredEntry current) {
        if (whole && current != null)
            current.keepFieldsJson(bytes -> capacity.tryChange(0, bytes));
        return current;
    }

    private CompletableFuture<Outcome> submit(DocumentId id, OperationName what, OperationOptions options,
                                              Operation operation) {
        if ( ! queued) {
            // Done before this returns: a lock orders the operations on the document, where the sequencer chains
            // futures to the same end and cost 5-6% more server CPU per GET and POST (h2c 4 x 256, 8166b97, 2026-11-27).
            Object stripe = stripe(options.bucketSpace(), id);
            return CompletableFuture.completedFuture(sequencer.runNow(what, options.deadline(), () -> {
                synchronized (stripe) {
                    Space space = spaces.get(options.bucketSpace());
                    Slot slot = space.byId().get(id.toString());
                    return operation.apply(space, slot, slot == null ? null : slot.entry());
                }
            }));
        }
        return sequencer.run(new SequenceKey(options.bucketSpace(), id), what, options.deadline(), () -> {
            CompletableFuture<Outcome> result = new CompletableFuture<>();
            try {
                executor.execute(() -> {
                    try {
                        // An executor's queue may have held it past its deadline, or past close().
                        Outcome late = sequencer.refusal(what, options.deadline());
                        if (late != null) {
                            result.complete(late);
                            return;
                        }
                        Space space = spaces.get(options.bucketSpace());
                        Slot slot = space.byId().get(id.toString());
                        result.complete(operation.apply(space, slot, slot == null ? null : slot.entry()));
                    } catch (RuntimeException e) {
                        result.completeExceptionally(e);
                    }
                });
            } catch (RejectedExecutionException e) {
                result.complete(sequencer.closedOutcome());
            }
            return result;
        });
    }

    /**
     * Takes {@code slot} out of {@code space} in the order of the document's operations, if it still holds an expired
     * tombstone then; a visit found it so.
     */
    private void forget(BucketSpace bucketSpace, Slot slot) {
        StoredEntry seen = slot.entry();
        Runnable forget = () -> {
            Space space = spaces.get(bucketSpace);
            if (slot.entry() == seen && isExpired(seen) && space.byId().remove(seen.id().toString(), slot))
                space.ordered().remove(slot.key(), slot);
        };
        if ( ! queued) {
            synchronized (stripe(bucketSpace, seen.id())) {
                forget.run();
            }
            return;
        }
        sequencer.sequence(new SequenceKey(bucketSpace, seen.id()), () -> {
            forget.run();
            return CompletableFuture.completedFuture(null);
        });
    }

    /** The lock of operations on document {@code id} in {@code space}, when they run on the caller's thread. */
    private Object stripe(BucketSpace space, DocumentId id) {
        int hash = id.hashCode() * 31 + space.ordinal();
        return stripes[(hash ^ (hash >>> 16)) & (STRIPES - 1)];
    }

    /** The slots (documents, and tombstones not yet forgotten) in {@code bucketSpace}, checking both maps agree; for tests. */
    int slots(BucketSpace bucketSpace) {
        Space space = spaces.get(bucketSpace);
        int slots = space.byId().size();
        if (slots != space.ordered().size())
            throw new IllegalStateException(slots + " slots by id, but " + space.ordered().size() + " in order");
        return slots;
    }

    /** Whether a tombstone has outlived the retention period and may be forgotten. */
    private boolean isExpired(StoredEntry entry) {
        if (entry.isLive()) {
            return false;
        }
        return Timestamps.nowMicros(clock) - entry.timestamp() > tombstoneRetentionMicros;
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
        figures.put(ContentStatistics.PENDING_OPERATIONS, sequencer.pending());
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

        private Clock clock = SystemUtcClock.instance();
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

        /**
         * Runs operations and visit reads on {@code executor}, which the backend will not shut down. Without one,
         * operations run on the calling thread and visit reads on a pool of the backend's own.
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** Size of the backend's own thread pool for visit reads, when no executor is given. */
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

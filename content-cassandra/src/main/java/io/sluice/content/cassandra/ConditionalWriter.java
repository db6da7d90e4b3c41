package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;
import io.sluice.content.OperationName;
import io.sluice.content.Decision;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Timestamps;
import io.sluice.content.Version;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * Writes documents' versions, in one of two ways.
 *
 * <p>{@link #write}: the read-decide-write loop of every write that needs the stored version (conditions, creates,
 * updates; every write in {@code write-mode="strict"}). It reads the row, decides, and writes the next version with a
 * lightweight transaction that applies only if the row still holds the version that was read ({@code IF ts = ?}); a
 * lost race re-reads at the serial level and decides again after a short pause; an unknown result is resolved by a
 * serial read of the attempt id the write carried. So each operation applies at most once, and the caller learns
 * whether it did, or gets a TIMEOUT when that cannot be known.
 *
 * <p>{@link #writePlain}: a put or remove without condition, as one plain write stamped by the {@link WriteClock}: no
 * read, no Paxos, and the same statement with the same timestamps may be sent again, so an unknown result is retried.
 */
final class ConditionalWriter {

    private static final int MAX_ATTEMPTS = 64;
    private static final int MAX_CHECKS = 4;
    private static final long RECHECK_PAUSE_MILLIS = 250;
    /** The pause after the first lost race; it doubles, with jitter, up to {@link #MAX_RACE_PAUSE_MILLIS}. */
    private static final long RACE_PAUSE_MILLIS = 2;
    private static final long MAX_RACE_PAUSE_MILLIS = 100;

    private final CqlSession session;
    private final Schema schema;
    private final CassandraOptions options;
    private final Clock clock;
    private final Executor executor;
    private final Pauses pauses;
    private final DocumentCodec codec;
    private final int tombstoneTtlSeconds;
    private final WriteClock writeClock;
    private final Timestamps versions;

    /**
     * @param clock      the clock of versions' timestamps, deadlines and {@code now()} in conditions
     * @param writeClock the clock of plain writes' Cassandra timestamps
     */
    ConditionalWriter(CqlSession session, Schema schema, CassandraOptions options, DocumentCodec codec, Clock clock,
                      WriteClock writeClock, Executor executor, Pauses pauses) {
        this.session = session;
        this.schema = schema;
        this.options = options;
        this.codec = codec;
        this.clock = clock;
        this.writeClock = writeClock;
        this.versions = Timestamps.monotonic(clock, 0);
        this.executor = executor;
        this.pauses = pauses;
        this.tombstoneTtlSeconds = (int) options.tombstoneRetention().getSeconds();
    }

    /** Reads the row of {@code id} at {@code level}, with its write time; null if there is none. */
    CompletableFuture<StoredVersion> read(DocumentId id, OperationOptions op, ConsistencyLevel level) {
        return read(schema.of(op.bucketSpace()).read(), id, op, level, StoredVersion::withWriteTime);
    }

    /** Reads the row of {@code id} for a get, at {@code level}; its write time is unknown. Null if there is none. */
    CompletableFuture<StoredVersion> get(DocumentId id, OperationOptions op, ConsistencyLevel level) {
        return read(schema.of(op.bucketSpace()).get(), id, op, level, row -> StoredVersion.of(row, 0));
    }

    private CompletableFuture<StoredVersion> read(PreparedStatement statement, DocumentId id, OperationOptions op,
                                                  ConsistencyLevel level, Function<Row, StoredVersion> version) {
        Key key = Key.of(id, options.distributionBits());
        BoundStatement read = statement.bind(key.sb(), key.orderKey(), key.id())
                                       .setConsistencyLevel(level)
                                       .setIdempotent(true)
                                       .setTimeout(remaining(op.deadline()));
        return session.executeAsync(read).toCompletableFuture().thenApply(result -> {
            Row row = result.one();
            return row == null ? null : version.apply(row);
        });
    }

    /**
     * Reads the current version, lets {@code decide} (the {@link io.sluice.content.WriteRules}, given the version as
     * they see it, or null for none) choose an outcome or a new version, and writes it.
     */
    CompletableFuture<Outcome> write(DocumentId id, OperationOptions op, OperationName what,
                                     Function<Version, Decision> decide) {
        return attempt(id, op, what, decide, 1, options.consistency());
    }

    private CompletableFuture<Outcome> attempt(DocumentId id, OperationOptions op, OperationName what,
                                               Function<Version, Decision> decide, int attempt,
                                               ConsistencyLevel readLevel) {
        return read(id, op, readLevel).handleAsync((current, readFailure) -> {
            if (readFailure != null) {
                return CompletableFuture.completedFuture(Failures.beforeWrite(readFailure, what));
            }
            Version version = codec.version(id, current);
            Decision decision = decide.apply(version);
            if (decision.isAnswer()) {
                return CompletableFuture.completedFuture(decision.answer());
            }
            if (missed(op.deadline())) {
                return CompletableFuture.completedFuture(Outcome.deadlinePassed(what, op.deadline()));
            }
            long timestamp = Math.max(Timestamps.after(clock, version), versions.next());
            versions.observe(timestamp);
            Duration wait = current != null && current.isPlainWritten() ? writeClock.untilAfter(current.writeTime())
                                                                        : Duration.ZERO;
            if (wait.isZero()) {
                return compareAndSet(id, op, what, decide, attempt, current, decision, timestamp);
            }
            if (clock.instant().plus(wait).isAfter(op.deadline())) {
                return CompletableFuture.completedFuture(Outcome.deadlinePassed(what, op.deadline()));
            }
            return pauses.after(wait).thenCompose(
                    ignored -> compareAndSet(id, op, what, decide, attempt, current, decision, timestamp));
        }, executor).thenCompose(Function.identity());
    }

    /**
     * Writes {@code decision} with a lightweight transaction that applies only if the row still holds {@code current}
     * (null: no row).
     */
    private CompletableFuture<Outcome> compareAndSet(DocumentId id, OperationOptions op, OperationName what,
                                                     Function<Version, Decision> decide, int attempt,
                                                     StoredVersion current, Decision decision, long timestamp) {
        boolean removed = decision.isTombstone();
        UUID attemptId = UUID.randomUUID();
        Key key = Key.of(id, options.distributionBits());
        BoundStatement write = schema.of(op.bucketSpace()).write()
                .bind(removed ? tombstoneTtlSeconds : 0, timestamp, removed,
                      removed ? null : ByteBuffer.wrap(codec.encode(decision.document())), attemptId,
                      key.sb(), key.orderKey(), key.id(), current == null ? null : current.timestamp())
                .setIdempotent(false)
                .setTimeout(remaining(op.deadline()));
        Outcome written = decision.written(timestamp);
        return session.executeAsync(write).toCompletableFuture().handle((result, failure) -> {
            if (failure == null) {
                return result.wasApplied() ? CompletableFuture.completedFuture(written)
                                           : retry(id, op, what, decide, attempt);
            }
            if (Failures.certainlyNotApplied(failure)) {
                return CompletableFuture.completedFuture(Failures.outcome(failure, what));
            }
            return resolveUnknown(id, op, what, decide, attempt, current, attemptId, written, failure);
        }).thenCompose(Function.identity());
    }

    /**
     * After losing a race: decide again on the version a serial read sees, unless out of attempts, after a pause that
     * grows with the attempts (with jitter, so racing writers spread out rather than collide again at once).
     */
    private CompletableFuture<Outcome> retry(DocumentId id, OperationOptions op, OperationName what,
                                             Function<Version, Decision> decide, int attempt) {
        if (attempt >= MAX_ATTEMPTS) {
            return CompletableFuture.completedFuture(Outcome.overload(
                    "Gave up " + what + " after " + attempt + " attempts lost to concurrent writes of the document"));
        }
        long ceiling = Math.min(MAX_RACE_PAUSE_MILLIS, RACE_PAUSE_MILLIS << Math.min(attempt - 1, 10));
        Duration pause = Duration.ofNanos(ThreadLocalRandom.current().nextLong(ceiling * 500_000, ceiling * 1_000_000));
        if (clock.instant().plus(pause).isAfter(op.deadline())) {
            return CompletableFuture.completedFuture(Outcome.deadlinePassed(what, op.deadline()));
        }
        return pauses.after(pause).thenCompose(
                ignored -> attempt(id, op, what, decide, attempt + 1, options.serialConsistency()));
    }

    /**
     * A write whose result is unknown: a serial read completes or discards any in-flight Paxos round, so afterwards
     * the row carries {@code attemptId} if the write applied and nothing wrote the document since, and still holds
     * {@code read} (the version the write was to replace) if it did not apply. If it did not, the operation is tried
     * again. If the row holds a third version, another write came in between: whether this one applied before it
     * cannot be told, so the outcome is a TIMEOUT, as when the check itself keeps failing until the deadline (a 504,
     * which clients take as "effect unknown" and do not retry). Trying again there could apply an update twice.
     */
    private CompletableFuture<Outcome> resolveUnknown(DocumentId id, OperationOptions op, OperationName what,
                                                      Function<Version, Decision> decide, int attempt,
                                                      StoredVersion read, UUID attemptId, Outcome written,
                                                      Throwable failure) {
        return check(id, op, 1).handle((now, checkFailure) -> {
            if (checkFailure != null) {
                return CompletableFuture.completedFuture(Outcome.timeout(
                        what + " may or may not have been applied: " + Failures.describe(failure)
                        + ", and checking failed: " + Failures.describe(checkFailure)));
            }
            if (now.isPresent() && attemptId.equals(now.get().op())) {
                return CompletableFuture.completedFuture(written);
            }
            if (!sameVersion(read, now.orElse(null))) {
                return CompletableFuture.completedFuture(Outcome.timeout(
                        what + " may or may not have been applied (" + Failures.describe(failure) + "): another "
                        + "write of the document came before it could be checked"));
            }
            if (missed(op.deadline())) {
                return CompletableFuture.completedFuture(Outcome.timeout(
                        what + " was not applied before its deadline (" + Failures.describe(failure) + ")"));
            }
            return retry(id, op, what, decide, attempt);
        }).thenCompose(Function.identity());
    }

    /** Whether {@code a} and {@code b} (null: no row) are the same version of a document. */
    private static boolean sameVersion(StoredVersion a, StoredVersion b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.timestamp() == b.timestamp() && Objects.equals(a.op(), b.op()) && a.removed() == b.removed();
    }

    /**
     * The row of {@code id} by a serial read, empty if there is none. A failed check is repeated after a growing
     * pause (250 ms doubling to 4 s), at least MAX_CHECKS times in all; beyond that, while the failure is one that
     * passes (a timeout, too few replicas, overload) and the operation's deadline has not passed. An unknown result
     * costs the client a final 504, so it is worth waiting out a node's failure detection or restart.
     */
    private CompletableFuture<Optional<StoredVersion>> check(DocumentId id, OperationOptions op, int check) {
        OperationOptions generous = op.withDeadline(clock.instant().plus(options.requestTimeout()));
        return read(id, generous, options.serialConsistency())
                .thenApply(Optional::ofNullable)
                .handle((current, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.completedFuture(current);
                    }
                    if (check >= MAX_CHECKS && (missed(op.deadline()) || !passes(failure))) {
                        return CompletableFuture.<Optional<StoredVersion>>failedFuture(failure);
                    }
                    Duration pause = Duration.ofMillis(RECHECK_PAUSE_MILLIS << Math.min(check - 1, 4));
                    return pauses.after(pause).thenCompose(ignored -> check(id, op, check + 1));
                }).thenCompose(Function.identity());
    }

    /**
     * Writes {@code decision} (a put or tombstone decided without reading, see
     * {@link io.sluice.content.WriteRules#putWithoutRead}) as one plain write with a timestamp from the write clock.
     * A failure that leaves the result unknown (a write timeout, a lost connection) is retried with the very same
     * statement, timestamps included, so it applies once however often it is sent, after a growing pause until the
     * deadline; then it is a TIMEOUT. A failure that certainly applied nothing is the operation's outcome.
     */
    CompletableFuture<Outcome> writePlain(DocumentId id, OperationOptions op, OperationName what, Decision decision) {
        if (missed(op.deadline())) {
            return CompletableFuture.completedFuture(Outcome.deadlinePassed(what, op.deadline()));
        }
        long timestamp = versions.next();
        boolean removed = decision.isTombstone();
        Key key = Key.of(id, options.distributionBits());
        BoundStatement write = schema.of(op.bucketSpace()).plainWrite()
                .bind(writeClock.next(), removed ? tombstoneTtlSeconds : 0, timestamp, removed,
                      removed ? null : ByteBuffer.wrap(codec.encode(decision.document())),
                      key.sb(), key.orderKey(), key.id())
                .setIdempotent(true);
        return sendPlain(write, op, what, decision.written(timestamp), 1);
    }

    private CompletableFuture<Outcome> sendPlain(BoundStatement write, OperationOptions op, OperationName what,
                                                 Outcome written, int tries) {
        return session.executeAsync(write.setTimeout(remaining(op.deadline()))).toCompletableFuture()
                      .handle((result, failure) -> {
                          if (failure == null) {
                              return CompletableFuture.completedFuture(written);
                          }
                          if (Failures.certainlyNotApplied(failure)) {
                              return CompletableFuture.completedFuture(Failures.outcome(failure, what));
                          }
                          Duration pause = Duration.ofMillis(RECHECK_PAUSE_MILLIS << Math.min(tries - 1, 4));
                          if (clock.instant().plus(pause).isAfter(op.deadline())) {
                              return CompletableFuture.completedFuture(Outcome.timeout(
                                      what + " may or may not have been applied: " + Failures.describe(failure)
                                      + ", and its deadline passed before it could be sent again"));
                          }
                          return pauses.after(pause).thenCompose(
                                  ignored -> sendPlain(write, op, what, written, tries + 1));
                      }).thenCompose(Function.identity());
    }

    /** Whether {@code failure} may pass by itself: a timeout, too few replicas or an overloaded node. */
    private static boolean passes(Throwable failure) {
        Outcome.Status status = Failures.outcome(failure, "a check").status();
        return status == Outcome.Status.TIMEOUT || status == Outcome.Status.UNAVAILABLE
               || status == Outcome.Status.OVERLOAD;
    }

    /** What is left until {@code deadline}, within (0, request timeout]. */
    private Duration remaining(Instant deadline) {
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.compareTo(options.requestTimeout()) > 0) {
            return options.requestTimeout();
        }
        return left.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : left;
    }

    private boolean missed(Instant deadline) {
        return clock.instant().isAfter(deadline);
    }


    /** Where a document lives: its partition (superbucket cursor), bucket order key and id. */
    record Key(int sb, long orderKey, String id) {

        static Key of(DocumentId id, int distributionBits) {
            long orderKey = BucketId.of(id).orderKey();
            return new Key((int) (orderKey >>> (64 - distributionBits)), orderKey, id.toString());
        }

    }

}

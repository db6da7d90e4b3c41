package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;
import io.sluice.content.Decision;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Timestamps;
import io.sluice.content.Version;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Reads a document's row and writes its next version with a lightweight transaction: the read-decide-write loop of
 * every write. The write applies only if the row still holds the version that was read ({@code IF ts = ?}); a lost
 * race re-reads at the serial level and decides again; an unknown result is resolved by a serial read of the attempt
 * id the write carried. So each operation applies at most once, and the caller learns whether it did.
 */
final class ConditionalWriter {

    private static final int MAX_ATTEMPTS = 64;
    private static final int MAX_CHECKS = 4;
    private static final long RECHECK_PAUSE_MILLIS = 250;

    private final CqlSession session;
    private final Schema schema;
    private final CassandraOptions options;
    private final Clock clock;
    private final Executor executor;
    private final Pauses pauses;
    private final DocumentCodec codec;
    private final int tombstoneTtlSeconds;

    ConditionalWriter(CqlSession session, Schema schema, CassandraOptions options, DocumentCodec codec, Clock clock,
                      Executor executor, Pauses pauses) {
        this.session = session;
        this.schema = schema;
        this.options = options;
        this.codec = codec;
        this.clock = clock;
        this.executor = executor;
        this.pauses = pauses;
        this.tombstoneTtlSeconds = (int) options.tombstoneRetention().getSeconds();
    }

    /** Reads the row of {@code id} at {@code level}; null if there is none. */
    CompletableFuture<StoredVersion> read(DocumentId id, OperationOptions op, ConsistencyLevel level) {
        Key key = Key.of(id, options.distributionBits());
        BoundStatement read = schema.of(op.bucketSpace()).read().bind(key.sb(), key.orderKey(), key.id())
                                    .setConsistencyLevel(level)
                                    .setIdempotent(true)
                                    .setTimeout(remaining(op.deadline()));
        return session.executeAsync(read).toCompletableFuture().thenApply(result -> {
            Row row = result.one();
            return row == null ? null : StoredVersion.of(row, 0);
        });
    }

    /**
     * Reads the current version, lets {@code decide} (the {@link io.sluice.content.WriteRules}, given the version as
     * they see it, or null for none) choose an outcome or a new version, and writes it.
     */
    CompletableFuture<Outcome> write(DocumentId id, OperationOptions op, String what,
                                     Function<Version, Decision> decide) {
        return attempt(id, op, what, decide, 1, options.consistency());
    }

    private CompletableFuture<Outcome> attempt(DocumentId id, OperationOptions op, String what,
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
            long timestamp = Timestamps.after(clock, version);
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
                return resolveUnknown(id, op, what, decide, attempt, attemptId, written, failure);
            }).thenCompose(Function.identity());
        }, executor).thenCompose(Function.identity());
    }

    /** After losing a race: decide again on the version a serial read sees, unless out of attempts. */
    private CompletableFuture<Outcome> retry(DocumentId id, OperationOptions op, String what,
                                             Function<Version, Decision> decide, int attempt) {
        if (attempt >= MAX_ATTEMPTS) {
            return CompletableFuture.completedFuture(Outcome.overload(
                    "Gave up " + what + " after " + attempt + " attempts lost to concurrent writes of the document"));
        }
        return attempt(id, op, what, decide, attempt + 1, options.serialConsistency());
    }

    /**
     * A write whose result is unknown: a serial read completes or discards any in-flight Paxos round, so afterwards
     * the row carries {@code attemptId} exactly if the write applied. If it did not, the operation is tried again. If
     * the check itself keeps failing until the deadline, the outcome is a TIMEOUT (a 504, which clients take as
     * "effect unknown" and do not retry).
     */
    private CompletableFuture<Outcome> resolveUnknown(DocumentId id, OperationOptions op, String what,
                                                      Function<Version, Decision> decide, int attempt,
                                                      UUID attemptId, Outcome written, Throwable failure) {
        return checkApplied(id, op, attemptId, 1).handle((applied, checkFailure) -> {
            if (checkFailure != null) {
                return CompletableFuture.completedFuture(Outcome.timeout(
                        what + " may or may not have been applied: " + Failures.describe(failure)
                        + ", and checking failed: " + Failures.describe(checkFailure)));
            }
            if (applied) {
                return CompletableFuture.completedFuture(written);
            }
            if (missed(op.deadline())) {
                return CompletableFuture.completedFuture(Outcome.timeout(
                        what + " was not applied before its deadline (" + Failures.describe(failure) + ")"));
            }
            return retry(id, op, what, decide, attempt);
        }).thenCompose(Function.identity());
    }

    /**
     * Whether the row of {@code id} was written by {@code attemptId}, by a serial read. A failed check is repeated
     * after a growing pause (250 ms doubling to 4 s), at least MAX_CHECKS times in all; beyond that, while the
     * failure is one that passes (a timeout, too few replicas, overload) and the operation's deadline has not passed.
     * An unknown result costs the client a final 504, so it is worth waiting out a node's failure detection or restart.
     */
    private CompletableFuture<Boolean> checkApplied(DocumentId id, OperationOptions op, UUID attemptId, int check) {
        OperationOptions generous = op.withDeadline(clock.instant().plus(options.requestTimeout()));
        return read(id, generous, options.serialConsistency())
                .thenApply(current -> current != null && attemptId.equals(current.op()))
                .handle((applied, failure) -> {
                    if (failure == null) {
                        return CompletableFuture.completedFuture(applied);
                    }
                    if (check >= MAX_CHECKS && (missed(op.deadline()) || !passes(failure))) {
                        return CompletableFuture.<Boolean>failedFuture(failure);
                    }
                    Duration pause = Duration.ofMillis(RECHECK_PAUSE_MILLIS << Math.min(check - 1, 4));
                    return pauses.after(pause).thenCompose(ignored -> checkApplied(id, op, attemptId, check + 1));
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

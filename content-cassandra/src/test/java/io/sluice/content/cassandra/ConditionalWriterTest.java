package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import io.sluice.content.Decision;
import io.sluice.content.ManualClock;
import io.sluice.content.Version;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The read-decide-write loop against a scripted session, for the failures a real cluster produces only by bad luck:
 * a timed-out first read, and checks of an unknown write that keep failing while a node is being detected as dead.
 */
class ConditionalWriterTest {

    private static final DocumentId ID = DocumentId.of("id:ns:music::a");
    private static final byte[] BODY = "{\"title\":\"a\"}".getBytes(StandardCharsets.UTF_8);

    private static final DocumentType MUSIC = DocumentType.builder("music").field("title", PrimitiveType.STRING).build();
    private static final Document DOCUMENT = Document.builder(MUSIC, ID).set("title", new StringValue("a")).build();

    private static final Duration SKEW = Duration.ofMillis(50);
    private static final UUID EARLIER = UUID.randomUUID();

    private final ScriptedSession cassandra = new ScriptedSession();
    /** Time passes only when the writer pauses: no test waits on real time. */
    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<Duration> pauses = new ArrayList<>();
    private final ConditionalWriter writer = new ConditionalWriter(
            cassandra.session(), Schema.prepare(cassandra.session(), CassandraOptions.defaults("scripted", 3)),
            CassandraOptions.defaults("scripted", 3), new DocumentCodec(DocumentTypes.of(List.of(MUSIC))), clock,
            new WriteClock(clock, SKEW), Runnable::run, pause -> {
                pauses.add(pause);
                clock.advance(pause);
                return CompletableFuture.completedFuture(null);
            });

    private Outcome put(Duration timeout) throws Exception {
        return writer.write(ID, OperationOptions.until(clock.instant().plus(timeout)), new io.sluice.content.OperationName("put", ID),
                            current -> Decision.write(DOCUMENT, Version.isLive(current)))
                     .get(1, TimeUnit.MINUTES);
    }

    @Test
    void timedOutFirstRead_isUnavailable_andWritesNothing() throws Exception {
        cassandra.then(call -> failed(new ReadTimeoutException(null, DefaultConsistencyLevel.LOCAL_QUORUM, 1, 2,
                                                                 false)));
        Outcome outcome = put(Duration.ofSeconds(30));
        assertEquals(Status.UNAVAILABLE, outcome.status(), outcome.toString());
        assertTrue(outcome.message().startsWith("Cassandra did not answer the read that starts put of "
                                                + "'id:ns:music::a', so it was not applied; retry later"),
                   outcome.message());
        assertEquals(List.of("SELECT"), cassandra.verbs());
    }

    @Test
    void unknownWrite_isCheckedAgainAfterMoreThanFourFailedChecks_andThenKnownToBeApplied() throws Exception {
        scriptNewDocumentWhoseWriteTimesOut();
        for (int check = 0; check < 4; check++) {
            cassandra.then(call -> failed(serialReadTimeout()));
        }
        cassandra.then(call -> rows(cassandra.attemptOfLastWrite()));
        Outcome outcome = put(Duration.ofSeconds(30));
        assertEquals(Status.SUCCESS, outcome.status(), outcome.toString());
        assertEquals(List.of("SELECT", "UPDATE", "SELECT", "SELECT", "SELECT", "SELECT", "SELECT"), cassandra.verbs());
        assertEquals(List.of(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
                             Duration.ofSeconds(2)), pauses);
    }

    @Test
    void unknownWrite_whoseChecksFailPastTheDeadline_isTimeout() throws Exception {
        scriptNewDocumentWhoseWriteTimesOut();
        for (int check = 0; check < 10; check++) {
            cassandra.then(call -> failed(serialReadTimeout()));
        }
        Outcome outcome = put(Duration.ofMillis(500));
        assertEquals(Status.TIMEOUT, outcome.status(), outcome.toString());
        assertTrue(outcome.message().startsWith("put of 'id:ns:music::a' may or may not have been applied"),
                   outcome.message());
        assertEquals(6, cassandra.verbs().size(), cassandra.verbs().toString()); // read, write, the 4 checks
        assertEquals(List.of(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1)), pauses);
    }

    @Test
    void unknownWrite_whoseCheckFailsForGood_stopsCheckingAfterFourTries() throws Exception {
        scriptNewDocumentWhoseWriteTimesOut();
        for (int check = 0; check < 10; check++) {
            cassandra.then(call -> failed(new IllegalStateException("Session is closed")));
        }
        Outcome outcome = put(Duration.ofSeconds(30));
        assertEquals(Status.TIMEOUT, outcome.status(), outcome.toString());
        assertEquals(6, cassandra.verbs().size(), cassandra.verbs().toString());
    }

    @Test
    void unknownWrite_whoseDocumentAnotherWriteChangedBeforeTheCheck_isTimeout_andNotTriedAgain() throws Exception {
        // The write may have applied, and then another container's write replaced it: trying again could apply an
        // update twice, so the outcome is unknown (before, the retry wrote a second time).
        cassandra.then(call -> rows(row(1, EARLIER, 1)))
                 .then(call -> failed(new WriteTimeoutException(null, DefaultConsistencyLevel.LOCAL_SERIAL, 1, 2,
                                                                WriteType.CAS)))
                 .then(call -> rows(row(7, UUID.randomUUID(), 7)));
        Outcome outcome = put(Duration.ofSeconds(30));
        assertEquals(Status.TIMEOUT, outcome.status(), outcome.toString());
        assertTrue(outcome.message().contains("another write of the document came before it could be checked"),
                   outcome.message());
        assertEquals(List.of("SELECT", "UPDATE", "SELECT"), cassandra.verbs());
    }

    @Test
    void unknownWrite_foundNotApplied_isTriedAgainAfterAPause() throws Exception {
        cassandra.then(call -> rows(row(1, EARLIER, 1)))
                 .then(call -> failed(new WriteTimeoutException(null, DefaultConsistencyLevel.LOCAL_SERIAL, 1, 2,
                                                                WriteType.CAS)))
                 .then(call -> rows(row(1, EARLIER, 1)))  // the check: still the version that was read
                 .then(call -> rows(row(1, EARLIER, 1)))  // the new attempt's serial read
                 .then(call -> applied());
        Outcome outcome = put(Duration.ofSeconds(30));
        assertEquals(Status.SUCCESS, outcome.status(), outcome.toString());
        assertEquals(List.of("SELECT", "UPDATE", "SELECT", "SELECT", "UPDATE"), cassandra.verbs());
        assertEquals(1, pauses.size(), pauses.toString());
        assertTrue(pauses.get(0).compareTo(Duration.ofMillis(2)) <= 0, pauses.toString());
    }

    @Test
    void lightweightTransaction_afterAPlainWriteStampedAhead_waitsUntilItsBallotIsLater() throws Exception {
        long plainWriteTime = micros(clock.instant()) + micros(SKEW); // a plain write of this instant
        cassandra.then(call -> rows(row(micros(clock.instant()), null, plainWriteTime)))
                 .then(call -> applied());
        Outcome outcome = put(Duration.ofSeconds(30));
        assertEquals(Status.SUCCESS, outcome.status(), outcome.toString());
        assertEquals(List.of(SKEW.multipliedBy(2).plusNanos(1_000)), pauses);
        assertEquals(List.of("SELECT", "UPDATE"), cassandra.verbs());
    }

    @Test
    void lightweightTransaction_afterAnOldPlainWrite_goesAtOnce() throws Exception {
        long plainWriteTime = micros(clock.instant()) - micros(SKEW) - 1;
        cassandra.then(call -> rows(row(1, null, plainWriteTime))).then(call -> applied());
        assertEquals(Status.SUCCESS, put(Duration.ofSeconds(30)).status());
        assertEquals(List.of(), pauses);
    }

    @Test
    void plainWrite_withUnknownResult_isSentAgainUnchanged() throws Exception {
        cassandra.then(call -> failed(new WriteTimeoutException(null, DefaultConsistencyLevel.LOCAL_QUORUM, 1, 2,
                                                                WriteType.SIMPLE)))
                 .then(call -> applied());
        Outcome outcome = writer.writePlain(ID, OperationOptions.until(clock.instant().plusSeconds(30)),
                                            new io.sluice.content.OperationName("put", ID), io.sluice.content.WriteRules.putWithoutRead(DOCUMENT, OperationOptions.until(clock.instant())))
                                .get(1, TimeUnit.MINUTES);
        assertEquals(Status.SUCCESS, outcome.status(), outcome.toString());
        assertEquals(List.of("UPDATE", "UPDATE"), cassandra.verbs());
        assertEquals(List.of(cassandra.calls.get(0).values()), List.of(cassandra.calls.get(1).values()));
        assertEquals(micros(clock.instant().minus(Duration.ofMillis(250))) + micros(SKEW),
                     (long) cassandra.calls.get(0).values()[0]);
    }

    @Test
    void plainWrite_whoseDeadlinePassesWhileItsResultIsUnknown_isTimeout() throws Exception {
        for (int i = 0; i < 3; i++) {
            cassandra.then(call -> failed(new WriteTimeoutException(null, DefaultConsistencyLevel.LOCAL_QUORUM, 1, 2,
                                                                    WriteType.SIMPLE)));
        }
        Outcome outcome = writer.writePlain(ID, OperationOptions.until(clock.instant().plusMillis(1000)),
                                            new io.sluice.content.OperationName("put", ID), io.sluice.content.WriteRules.putWithoutRead(DOCUMENT, OperationOptions.until(clock.instant())))
                                .get(1, TimeUnit.MINUTES);
        assertEquals(Status.TIMEOUT, outcome.status(), outcome.toString());
        assertEquals(3, cassandra.verbs().size());
    }

    private static long micros(Instant instant) {
        return io.sluice.content.Timestamps.nowMicros(java.time.Clock.fixed(instant, java.time.ZoneOffset.UTC));
    }

    private static long micros(Duration duration) {
        return io.sluice.content.Timestamps.micros(duration);
    }

    /** The first read finds no row; the write's result is unknown (a CAS write timeout). */
    private void scriptNewDocumentWhoseWriteTimesOut() {
        cassandra.then(call -> rows((Row) null))
                 .then(call -> failed(new WriteTimeoutException(null, DefaultConsistencyLevel.LOCAL_SERIAL, 1, 2,
                                                                WriteType.CAS)));
    }

    private static ReadTimeoutException serialReadTimeout() {
        return new ReadTimeoutException(null, DefaultConsistencyLevel.LOCAL_SERIAL, 1, 2, false);
    }

    private static CompletionStage<AsyncResultSet> failed(Throwable failure) {
        return CompletableFuture.failedFuture(failure);
    }

    /** A result of one row written by {@code attempt}, or of no row if it is null. */
    private static CompletionStage<AsyncResultSet> rows(UUID attempt) {
        return rows(attempt == null ? null : row(1, attempt, 1));
    }

    /** A live document's row of version {@code timestamp}, written by {@code attempt} (null: a plain write). */
    private static Row row(long timestamp, UUID attempt, long writeTime) {
        return proxy(Row.class, (method, args) -> switch (method) {
            case "getLong" -> (int) args[0] == 4 ? writeTime : timestamp;
            case "getBoolean" -> false;
            case "getByteBuffer" -> ByteBuffer.wrap(BODY);
            case "getUuid" -> attempt;
            default -> throw new UnsupportedOperationException(method);
        });
    }

    /** The answer of an applied write. */
    private static CompletionStage<AsyncResultSet> applied() {
        return rows((Row) null);
    }

    private static CompletionStage<AsyncResultSet> rows(Row row) {
        return CompletableFuture.completedFuture(proxy(AsyncResultSet.class, (method, args) -> switch (method) {
            case "one" -> row;
            case "wasApplied" -> true;
            default -> throw new UnsupportedOperationException(method);
        }));
    }

    private interface Handler {
        Object invoke(String method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Handler handler) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
            switch (method.getName()) {
                case "hashCode": return System.identityHashCode(proxy);
                case "equals": return proxy == args[0];
                case "toString": return type.getSimpleName();
                default: return handler.invoke(method.getName(), args);
            }
        });
    }

    /** A session answering each executed statement with the next scripted answer; records what it was asked. */
    private static final class ScriptedSession {

        private record Call(String cql, Object[] values) { }

        private final Deque<Function<Call, CompletionStage<AsyncResultSet>>> script = new ArrayDeque<>();
        final List<Call> calls = new ArrayList<>();
        private final CqlSession session = proxy(CqlSession.class, (method, args) -> switch (method) {
            case "execute" -> proxy(ResultSet.class, (name, none) -> null); // schema statements: no rows
            case "prepare" -> prepared((String) args[0]);
            case "executeAsync" -> next((Call) ((ScriptedStatement) args[0]).call());
            default -> throw new UnsupportedOperationException(method);
        });

        CqlSession session() {
            return session;
        }

        ScriptedSession then(Function<Call, CompletionStage<AsyncResultSet>> answer) {
            script.add(answer);
            return this;
        }

        synchronized List<String> verbs() {
            return calls.stream().map(call -> call.cql().substring(0, call.cql().indexOf(' '))).toList();
        }

        /** The attempt id the newest UPDATE carried (its fifth bound value). */
        synchronized UUID attemptOfLastWrite() {
            for (int i = calls.size() - 1; i >= 0; i--) {
                if (calls.get(i).cql().startsWith("UPDATE")) {
                    return (UUID) calls.get(i).values()[4];
                }
            }
            throw new AssertionError("no write was executed");
        }

        private synchronized CompletionStage<AsyncResultSet> next(Call call) {
            calls.add(call);
            Function<Call, CompletionStage<AsyncResultSet>> answer = script.poll();
            if (answer == null) {
                throw new AssertionError("unscripted statement: " + call.cql());
            }
            return answer.apply(call);
        }

        private static PreparedStatement prepared(String cql) {
            return proxy(PreparedStatement.class, (method, args) -> {
                if (!method.equals("bind")) {
                    throw new UnsupportedOperationException(method);
                }
                Call call = new Call(cql, (Object[]) args[0]);
                return Proxy.newProxyInstance(
                        ScriptedStatement.class.getClassLoader(), new Class<?>[] { ScriptedStatement.class },
                        (proxy, bound, boundArgs) -> {
                            if (bound.getName().equals("call")) {
                                return call;
                            }
                            if (bound.getReturnType().isInstance(proxy)) {
                                return proxy; // setConsistencyLevel, setIdempotent, setTimeout, ...
                            }
                            throw new UnsupportedOperationException(bound.getName());
                        });
            });
        }

    }

    /** A bound statement that knows its CQL and values. */
    interface ScriptedStatement extends BoundStatement {
        Object call();
    }

}

package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.sluice.content.BucketSpace;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import io.sluice.content.cassandra.harness.CassandraNode;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.document.TestUpdates;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plain (timestamped) writes and lightweight transactions on the same documents, from two containers whose clocks are
 * {@value #OFFSET_MILLIS} ms ahead of and behind the node's, within the 50 ms max-clock-skew: each race the module
 * README describes. Cassandra keeps the write with the greatest write timestamp per cell, and a transaction's is its
 * ballot from the node's clock, so without the write clock's margins each of these loses an acknowledged write.
 */
@Tag("cassandra")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MixedWritesTest {

    private static final int OFFSET_MILLIS = 40;
    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC));
    private static final CassandraOptions OPTIONS = CassandraOptions.defaults("mixed", 1);

    private CqlSession session;
    private final List<CassandraContentBackend> backends = new ArrayList<>();

    /** The node the containers share: Cassandra's default, Paxos v1. */
    protected CassandraNode node() {
        return SharedNode.get();
    }

    @BeforeAll
    void connect() {
        session = CassandraContentBackend.connect(OPTIONS.withContactPoints(List.of(node().nativeAddress())));
        CassandraContentBackend.builder(OPTIONS, TYPES).session(session).build().close(); // creates the schema
        for (BucketSpace space : BucketSpace.values()) {
            session.execute("TRUNCATE " + Schema.table(OPTIONS.keyspace(), space));
        }
    }

    @AfterAll
    void disconnect() {
        session.close();
    }

    @AfterEach
    void close() {
        backends.forEach(CassandraContentBackend::close);
        backends.clear();
    }

    /** A container whose clock is {@code offsetMillis} off the system's. */
    private CassandraContentBackend container(int offsetMillis) {
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(offsetMillis));
        CassandraContentBackend backend = CassandraContentBackend.builder(OPTIONS, TYPES).session(session)
                                                                 .clock(clock).writeClock(clock).build();
        backends.add(backend);
        return backend;
    }

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(60));
    }

    private static Document song(DocumentId id, int year) {
        return Document.builder(MUSIC, id).set("title", new StringValue("t")).set("year", new IntValue(year)).build();
    }

    private static Outcome await(CompletableFuture<Outcome> future) throws Exception {
        Outcome outcome = future.get(60, TimeUnit.SECONDS);
        assertEquals(Status.SUCCESS, outcome.status(), outcome.toString());
        return outcome;
    }

    private static int year(CassandraContentBackend backend, DocumentId id) throws Exception {
        Outcome read = await(backend.get(id, FieldSet.all(), options()));
        return ((IntValue) read.document().orElseThrow().value("year").orElseThrow()).value();
    }

    @Test
    void update_rightAfterAPlainPutFromAClockAhead_isVisible() throws Exception {
        CassandraContentBackend ahead = container(OFFSET_MILLIS);
        CassandraContentBackend behind = container(-OFFSET_MILLIS);
        for (int i = 0; i < 10; i++) {
            DocumentId id = DocumentId.of("id:ns:music::put-then-update-" + i);
            await(ahead.put(song(id, 1), options()));
            await(behind.update(TestUpdates.assign(MUSIC, id, "year", new IntValue(2)), options()));
            assertEquals(2, year(ahead, id), "the update after the put is the newest version");
        }
    }

    @Test
    void conditionalPut_rightAfterAPlainPutFromAClockAhead_isVisible() throws Exception {
        CassandraContentBackend ahead = container(OFFSET_MILLIS);
        CassandraContentBackend behind = container(-OFFSET_MILLIS);
        for (int i = 0; i < 10; i++) {
            DocumentId id = DocumentId.of("id:ns:music::put-then-test-and-set-" + i);
            await(ahead.put(song(id, 1), options()));
            await(behind.put(song(id, 2), options().withCondition(DocumentSelection.parse("music.year == 1"))));
            assertEquals(2, year(behind, id));
        }
    }

    @Test
    void plainPut_rightAfterAnUpdateFromAClockBehind_isVisible() throws Exception {
        CassandraContentBackend ahead = container(OFFSET_MILLIS);
        CassandraContentBackend behind = container(-OFFSET_MILLIS);
        for (int i = 0; i < 10; i++) {
            DocumentId id = DocumentId.of("id:ns:music::update-then-put-" + i);
            await(ahead.put(song(id, 1), options().withCondition(DocumentSelection.parse("music.year == 0"))
                                                  .withCreateIfNonExistent(true)));
            await(ahead.update(TestUpdates.assign(MUSIC, id, "year", new IntValue(2)), options()));
            await(behind.put(song(id, 3), options()));
            assertEquals(3, year(ahead, id), "the put after the update is the newest version");
        }
    }

    @Test
    void plainRemove_rightAfterAnUpdateFromAClockBehind_removes() throws Exception {
        CassandraContentBackend ahead = container(OFFSET_MILLIS);
        CassandraContentBackend behind = container(-OFFSET_MILLIS);
        DocumentId id = DocumentId.of("id:ns:music::update-then-remove");
        await(ahead.put(song(id, 1), options()));
        await(ahead.update(TestUpdates.assign(MUSIC, id, "year", new IntValue(2)), options()));
        await(behind.remove(id, options()));
        Outcome read = ahead.get(id, FieldSet.all(), options()).get(60, TimeUnit.SECONDS);
        assertEquals(Status.NOT_FOUND, read.status(), read.toString());
    }

    @Test
    void racingPlainPutsAndUpdates_leaveTheNewestAcknowledgedVersion() throws Exception {
        CassandraContentBackend ahead = container(OFFSET_MILLIS);
        CassandraContentBackend behind = container(-OFFSET_MILLIS);
        for (int round = 0; round < 20; round++) {
            DocumentId id = DocumentId.of("id:ns:music::race-" + round);
            await(behind.put(song(id, 0), options()));
            CompletableFuture<Outcome> update = behind.update(TestUpdates.assign(MUSIC, id, "year",
                                                                                 new IntValue(100 + round)), options());
            CompletableFuture<Outcome> put = ahead.put(song(id, 200 + round), options());
            Outcome updated = await(update);
            Outcome put2 = await(put);
            Outcome stored = await(ahead.get(id, FieldSet.all(), options()));
            int year = ((IntValue) stored.document().orElseThrow().value("year").orElseThrow()).value();
            assertTrue(year == 100 + round || year == 200 + round, "round " + round + ": year " + year);
            assertEquals(year == 100 + round ? updated.timestamp() : put2.timestamp(), stored.timestamp(),
                         "round " + round + ": the stored version is the acknowledged write that won");
        }
    }

    @Test
    void clockFurtherOffThanMaxClockSkew_refusesToOpen_unlessWritesAreStrict() {
        Clock far = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(2));
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraContentBackend.builder(OPTIONS, TYPES).session(session).writeClock(far).build());
        assertTrue(e.getMessage().startsWith("max-clock-skew is 50.0 ms, but the clock of Cassandra node "),
                   e.getMessage());
        assertTrue(e.getMessage().contains("behind this container's"), e.getMessage());
        CassandraContentBackend.builder(OPTIONS.withWriteMode(CassandraOptions.WriteMode.STRICT), TYPES)
                               .session(session).writeClock(far).build().close();
    }

    @Test
    void plainPut_writesNoTombstone_andRowsWithANullOpStillCountAsPlainWritten() throws Exception {
        CassandraContentBackend ahead = container(OFFSET_MILLIS);
        CassandraContentBackend behind = container(-OFFSET_MILLIS);
        String table = Schema.table(OPTIONS.keyspace(), BucketSpace.DEFAULT);
        DocumentId id = DocumentId.of("id:ns:music::no-tombstone");
        ConditionalWriter.Key key = ConditionalWriter.Key.of(id, OPTIONS.distributionBits());
        await(ahead.put(song(id, 1), options()));
        Row row = session.execute(SimpleStatement.newInstance(
                "SELECT op FROM " + table + " WHERE sb = ? AND ok = ? AND id = ?", key.sb(), key.orderKey(),
                key.id())).one();
        assertEquals(StoredVersion.PLAIN_WRITE, row.getUuid("op"), "a live cell, not a null (a cell tombstone)");

        // As plain writes stored it before: op null. A transaction after it must still wait out the clock margin.
        DocumentId legacy = DocumentId.of("id:ns:music::null-op");
        ConditionalWriter.Key legacyKey = ConditionalWriter.Key.of(legacy, OPTIONS.distributionBits());
        await(ahead.put(song(legacy, 1), options()));
        long putTime = session.execute(SimpleStatement.newInstance(
                "SELECT WRITETIME(ts) FROM " + table + " WHERE sb = ? AND ok = ? AND id = ?", legacyKey.sb(),
                legacyKey.orderKey(), legacyKey.id())).one().getLong(0);
        session.execute(SimpleStatement.newInstance( // at the put's own write time: a tombstone wins a tie
                "UPDATE " + table + " USING TIMESTAMP ? SET op = null WHERE sb = ? AND ok = ? AND id = ?",
                putTime, legacyKey.sb(), legacyKey.orderKey(), legacyKey.id()));
        await(behind.update(TestUpdates.assign(MUSIC, legacy, "year", new IntValue(2)), options()));
        assertEquals(2, year(ahead, legacy), "the update after the put is the newest version");
    }

}

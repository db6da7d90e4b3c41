package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.sluice.content.cassandra.harness.CassandraNode;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.FieldValue;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.document.TestUpdates;
import io.sluice.content.BucketSpace;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Atomicity across Sluice containers: several backends (each with its own session and its own per-id ordering, as
 * separate containers would have) race on one document. Without a real compare-and-set, updates would be lost and
 * creates would both win.
 */
@Tag("cassandra")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConcurrentWritesTest {

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .field("tags", new ArrayType(PrimitiveType.STRING))
            .build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC));
    private static final DocumentId ID = DocumentId.of("id:ns:music::contended");
    private static final CassandraOptions OPTIONS = CassandraOptions.defaults("concurrency", 1);
    private static final int CONTAINERS = 4;

    private final List<CqlSession> sessions = new ArrayList<>();
    private final List<CassandraContentBackend> containers = new ArrayList<>();
    private ExecutorService threads;

    /** The node the containers share: Cassandra's default, Paxos v1. */
    protected CassandraNode node() {
        return SharedNode.get();
    }

    @BeforeAll
    void connect() {
        for (int i = 0; i < CONTAINERS; i++) {
            sessions.add(CassandraContentBackend.connect(OPTIONS.withContactPoints(List.of(node().nativeAddress()))));
        }
    }

    @AfterAll
    void disconnect() {
        sessions.forEach(CqlSession::close);
    }

    @BeforeEach
    void createContainers() {
        threads = Executors.newFixedThreadPool(CONTAINERS);
        for (CqlSession session : sessions) {
            containers.add(CassandraContentBackend.builder(OPTIONS, TYPES).session(session).build());
        }
        for (BucketSpace space : BucketSpace.values()) {
            sessions.get(0).execute("TRUNCATE " + Schema.table(OPTIONS.keyspace(), space));
        }
    }

    @AfterEach
    void closeContainers() {
        threads.shutdownNow();
        containers.forEach(CassandraContentBackend::close);
        containers.clear();
    }

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(60));
    }

    private static Document song(int year) {
        return Document.builder(MUSIC, ID).set("title", new StringValue("t")).set("year", new IntValue(year)).build();
    }

    private static Outcome await(CompletableFuture<Outcome> future) throws Exception {
        return future.get(60, TimeUnit.SECONDS);
    }

    @Test
    void testAndSetIncrements_fromFourContainers_loseNoIncrement() throws Exception {
        assertEquals(Status.SUCCESS, await(containers.get(0).put(song(0), options())).status());
        int perContainer = 15;
        List<Future<Integer>> workers = new ArrayList<>();
        for (CassandraContentBackend container : containers) {
            workers.add(threads.submit(() -> {
                int conflicts = 0;
                for (int done = 0; done < perContainer; ) {
                    Outcome read = await(container.get(ID, FieldSet.all(), options()));
                    int year = ((IntValue) read.document().orElseThrow().value("year").orElseThrow()).value();
                    OperationOptions ifUnchanged = options().withCondition(DocumentSelection.parse("music.year == "
                                                                                                   + year));
                    Outcome written = await(container.put(song(year + 1), ifUnchanged));
                    if (written.status() == Status.SUCCESS) {
                        done++;
                    } else {
                        assertEquals(Status.CONDITION_FAILED, written.status(), written.toString());
                        conflicts++;
                    }
                }
                return conflicts;
            }));
        }
        for (Future<Integer> worker : workers) {
            worker.get(5, TimeUnit.MINUTES);
        }
        Document stored = await(containers.get(0).get(ID, FieldSet.all(), options())).document().orElseThrow();
        assertEquals(new IntValue(CONTAINERS * perContainer), stored.value("year").orElseThrow());
    }

    @Test
    void createIfNonExistent_fromEightRacingWrites_createsOnce() throws Exception {
        List<CompletableFuture<Outcome>> creates = new ArrayList<>();
        OperationOptions createOnly = options().withCondition(DocumentSelection.parse("music.year == -1"))
                                               .withCreateIfNonExistent(true);
        for (int i = 0; i < 8; i++) {
            creates.add(containers.get(i % CONTAINERS).put(song(i), createOnly));
        }
        int created = 0;
        for (CompletableFuture<Outcome> create : creates) {
            Outcome outcome = await(create);
            if (outcome.status() == Status.SUCCESS) {
                created++;
            } else {
                assertEquals(Status.CONDITION_FAILED, outcome.status(), outcome.toString());
            }
        }
        assertEquals(1, created);
    }

    @Test
    void appendUpdates_fromFourContainersAtOnce_allApply() throws Exception {
        await(containers.get(0).put(Document.of(MUSIC, ID), options()));
        List<CompletableFuture<Outcome>> updates = new ArrayList<>();
        Set<FieldValue> expected = new HashSet<>();
        for (int i = 0; i < 60; i++) {
            StringValue tag = new StringValue("t" + i);
            expected.add(tag);
            updates.add(containers.get(i % CONTAINERS).update(TestUpdates.append(MUSIC, ID, "tags", tag), options()));
        }
        for (CompletableFuture<Outcome> update : updates) {
            assertEquals(Status.SUCCESS, await(update).status());
        }
        ArrayValue tags = (ArrayValue) await(containers.get(0).get(ID, FieldSet.all(), options()))
                .document().orElseThrow().value("tags").orElseThrow();
        assertEquals(expected, new HashSet<>(tags.elements()));
        assertEquals(60, tags.size());
    }

}

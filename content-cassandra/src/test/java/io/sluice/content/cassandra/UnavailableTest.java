package io.sluice.content.cassandra;

import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.PrimitiveType;
import io.sluice.content.ContentUnavailableException;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import io.sluice.content.Visit;
import io.sluice.content.VisitSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A keyspace replicated twice on a one-node cluster: LOCAL_QUORUM needs two live replicas and has one, so Cassandra
 * answers Unavailable, which clients must see as a retryable 503 (not a 500): an UNAVAILABLE outcome, or for a visit a
 * ContentUnavailableException.
 */
@Tag("cassandra")
class UnavailableTest {

    private static final DocumentType MUSIC = DocumentType.builder("music").field("title", PrimitiveType.STRING)
                                                          .build();
    private static final DocumentId ID = DocumentId.of("id:ns:music::a");
    private static CassandraContentBackend backend;

    @BeforeAll
    static void open() {
        CassandraOptions options = CassandraOptions.defaults("unavailable", 2)
                                                   .withContactPoints(List.of(SharedNode.get().nativeAddress()));
        backend = CassandraContentBackend.open(options, DocumentTypes.of(List.of(MUSIC)));
    }

    @AfterAll
    static void close() {
        backend.close();
    }

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(30));
    }

    @Test
    void put_withTooFewReplicas_isUnavailable() throws Exception {
        Outcome outcome = backend.put(Document.of(MUSIC, ID), options()).get(1, TimeUnit.MINUTES);
        assertEquals(Status.UNAVAILABLE, outcome.status(), outcome.toString());
        assertTrue(outcome.message().startsWith("Cassandra is unavailable for put of 'id:ns:music::a'"),
                   outcome.message());
    }

    @Test
    void get_withTooFewReplicas_isUnavailable() throws Exception {
        Outcome outcome = backend.get(ID, FieldSet.all(), options()).get(1, TimeUnit.MINUTES);
        assertEquals(Status.UNAVAILABLE, outcome.status(), outcome.toString());
    }

    @Test
    void get_atGetConsistencyOfOneReplica_isAnswered_whileWritesAtTheDefaultAreUnavailable() throws Exception {
        CassandraOptions options = CassandraOptions.fromEngineOptions("unavailable", 2,
                                                                      Map.of("get-consistency", "LOCAL_ONE"))
                                                   .withContactPoints(List.of(SharedNode.get().nativeAddress()));
        try (CassandraContentBackend oneForGets = CassandraContentBackend.open(options,
                                                                               DocumentTypes.of(List.of(MUSIC)))) {
            Outcome get = oneForGets.get(ID, FieldSet.all(), options()).get(1, TimeUnit.MINUTES);
            assertEquals(Status.NOT_FOUND, get.status(), get.toString());
            Outcome put = oneForGets.put(Document.of(MUSIC, ID), options()).get(1, TimeUnit.MINUTES);
            assertEquals(Status.UNAVAILABLE, put.status(), put.toString());
        }
    }

    @Test
    void visit_withTooFewReplicas_failsAsContentUnavailable() {
        try (Visit visit = backend.visit(VisitSpec.builder().build())) {
            ExecutionException failure = assertThrows(ExecutionException.class,
                                                       () -> visit.next(100).get(1, TimeUnit.MINUTES));
            assertInstanceOf(ContentUnavailableException.class, failure.getCause(), failure.toString());
            assertTrue(failure.getCause().getMessage().startsWith(
                    "Cassandra is unavailable for a visit of bucket space 'default'"), failure.getCause().getMessage());
        }
    }

}

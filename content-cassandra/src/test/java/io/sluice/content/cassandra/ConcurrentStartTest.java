package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.sluice.content.BucketSpace;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Containers starting at once on an empty keyspace: each creates the keyspace and tables, with the same table ids, so
 * they agree on one schema and see each other's documents.
 */
@Tag("cassandra")
class ConcurrentStartTest {

    private static final DocumentType MUSIC = DocumentType.builder("music").field("title", PrimitiveType.STRING).build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC));
    private static final int CONTAINERS = 3;

    @Test
    void containersStartingTogetherOnAnEmptyKeyspace_shareOneSchema() throws Exception {
        CassandraOptions options = CassandraOptions.defaults("concurrent_start_" + System.nanoTime(), 1)
                                                   .withContactPoints(List.of(SharedNode.get().nativeAddress()));
        List<CqlSession> sessions = new ArrayList<>();
        for (int i = 0; i < CONTAINERS; i++) {
            sessions.add(CassandraContentBackend.connect(options));
        }
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<CassandraContentBackend>> starts = new ArrayList<>();
            for (CqlSession session : sessions) {
                starts.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return CassandraContentBackend.builder(options, TYPES).session(session).build();
                }));
            }
            go.countDown();
            List<CassandraContentBackend> containers = new ArrayList<>();
            for (CompletableFuture<CassandraContentBackend> start : starts) {
                containers.add(start.get(2, TimeUnit.MINUTES));
            }
            for (int i = 0; i < CONTAINERS; i++) {
                Document song = Document.builder(MUSIC, DocumentId.of("id:ns:music::" + i))
                                        .set("title", new StringValue("t" + i)).build();
                assertEquals(Outcome.Status.SUCCESS, containers.get(i).put(song, options()).get().status());
            }
            for (CassandraContentBackend container : containers) {
                for (int i = 0; i < CONTAINERS; i++) {
                    Outcome read = container.get(DocumentId.of("id:ns:music::" + i), FieldSet.all(), options()).get();
                    assertEquals(Outcome.Status.SUCCESS, read.status(), read.toString());
                }
                container.close();
            }
            List<Row> tables = sessions.get(0).execute(
                    "SELECT table_name, id FROM system_schema.tables WHERE keyspace_name = ?", options.keyspace()).all();
            assertEquals(BucketSpace.values().length + 1, tables.size());
            for (Row table : tables) {
                assertEquals(Schema.tableId(options.keyspace() + "." + table.getString("table_name")),
                             table.getUuid("id"));
            }
        } finally {
            sessions.forEach(CqlSession::close);
        }
    }

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(60));
    }

}

package io.sluice.content.cassandra;

import io.sluice.content.ContentBackend;
import io.sluice.content.ContentBackendConformanceTest;
import io.sluice.content.ManualClock;
import io.sluice.content.cassandra.harness.SharedNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * The backend conformance suite with {@code write-mode="strict"} (every write a lightweight transaction, each
 * outcome knowing whether the document existed), against the shared node, in a keyspace of its own.
 */
@Tag("cassandra")
class CassandraStrictContentBackendTest extends ContentBackendConformanceTest {

    private static TestKeyspace keyspace;

    @BeforeAll
    static void connect() {
        keyspace = TestKeyspace.open(CassandraOptions.defaults("conformance_strict", 1)
                                                     .withWriteMode(CassandraOptions.WriteMode.STRICT),
                                     TYPES, SharedNode.get());
    }

    @AfterAll
    static void disconnect() {
        keyspace.close();
    }

    /** Visits scan token ranges: partitions come in token order, each bucket's entries together and in order. */
    @Override
    protected boolean visitsInBucketOrder() {
        return false;
    }

    @Override
    protected ContentBackend createBackend(ManualClock clock) {
        keyspace.truncate();
        return keyspace.backend().clock(clock).build();
    }

}

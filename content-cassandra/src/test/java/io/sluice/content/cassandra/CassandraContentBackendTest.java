package io.sluice.content.cassandra;

import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.content.ContentBackend;
import io.sluice.content.ContentBackendConformanceTest;
import io.sluice.content.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** The backend conformance suite against one real Cassandra node; each test starts from empty tables. */
@Tag("cassandra")
class CassandraContentBackendTest extends ContentBackendConformanceTest {

    private static TestKeyspace keyspace;

    @BeforeAll
    static void connect() {
        keyspace = TestKeyspace.open(CassandraOptions.defaults("conformance", 1), TYPES, SharedNode.get());
    }

    @AfterAll
    static void disconnect() {
        keyspace.close();
    }

    /** Plain puts and removes are one timestamped write each, without a read (write-mode timestamped). */
    @Override
    protected boolean readsBeforePlainWrites() {
        return false;
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

package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentBackend;
import io.sluice.content.ContentBackendConformanceTest;
import io.sluice.content.ManualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

import java.util.List;

/** The backend conformance suite against one real Cassandra node; each test starts from empty tables. */
@Tag("cassandra")
class CassandraContentBackendTest extends ContentBackendConformanceTest {

    private static final CassandraOptions OPTIONS = CassandraOptions.defaults("conformance", 1);
    private static CqlSession session;

    @BeforeAll
    static void connect() {
        session = CassandraContentBackend.connect(
                OPTIONS.withContactPoints(List.of(SharedNode.get().nativeAddress())));
        CassandraContentBackend.builder(OPTIONS, TYPES).session(session).build().close(); // creates the schema
    }

    @AfterAll
    static void disconnect() {
        session.close();
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
        for (BucketSpace space : BucketSpace.values()) {
            session.execute("TRUNCATE " + Schema.table(OPTIONS.keyspace(), space));
        }
        return CassandraContentBackend.builder(OPTIONS, TYPES).session(session).clock(clock).build();
    }

}

package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.sluice.content.BucketSpace;
import io.sluice.content.cassandra.harness.CassandraNode;
import io.sluice.document.DocumentTypes;

import java.util.List;

/**
 * The keyspace of one test class on a test node: a session to it, with its schema created on open, and its tables
 * emptied on demand, so each test can start from nothing without creating the schema again.
 */
final class TestKeyspace implements AutoCloseable {

    private final CassandraOptions options;
    private final DocumentTypes types;
    private final CqlSession session;

    private TestKeyspace(CassandraOptions options, DocumentTypes types, CqlSession session) {
        this.options = options;
        this.types = types;
        this.session = session;
    }

    /** Connects to {@code node} and creates the keyspace and tables {@code options} name, for {@code types}. */
    static TestKeyspace open(CassandraOptions options, DocumentTypes types, CassandraNode node) {
        CqlSession session = CassandraContentBackend.connect(options.withContactPoints(List.of(node.nativeAddress())));
        CassandraContentBackend.builder(options, types).session(session).build().close(); // creates the schema
        return new TestKeyspace(options, types, session);
    }

    /** Empties every table of the keyspace. */
    void truncate() {
        for (BucketSpace space : BucketSpace.values()) {
            session.execute("TRUNCATE " + Schema.table(options.keyspace(), space));
        }
    }

    /** A builder of a backend on this keyspace's session and options. */
    CassandraContentBackend.Builder backend() {
        return CassandraContentBackend.builder(options, types).session(session);
    }

    CqlSession session() {
        return session;
    }

    @Override
    public void close() {
        session.close();
    }

}

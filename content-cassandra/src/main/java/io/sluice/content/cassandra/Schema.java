package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.sluice.document.content.BucketSpace;

import java.util.EnumMap;
import java.util.Map;

/**
 * The keyspace of one content cluster, one table per bucket space, and the prepared statements on them.
 *
 * <p>Table layout (see the module README for why): partition key {@code sb}, the document's superbucket as a visiting
 * cursor (the top distribution bits of its bucket order key); clustering by {@code ok}, the bucket order key, then the
 * document id, so each partition holds its documents in visiting order; the newest version's timestamp {@code ts}
 * (microseconds), a tombstone flag, the fields as JSON, and {@code op}, the id of the write attempt that wrote it.
 */
final class Schema {

    static final String COLUMNS = "ts, removed, body, op";

    private final Map<BucketSpace, Statements> statements = new EnumMap<>(BucketSpace.class);

    /** The prepared statements of one table. */
    record Statements(PreparedStatement read, PreparedStatement write, PreparedStatement readPartition,
                      PreparedStatement readPartitions, PreparedStatement readPartitionKeys) { }

    private Schema() { }

    /** Creates the keyspace and tables if {@code options.createSchema()}, and prepares the statements. */
    static Schema prepare(CqlSession session, CassandraOptions options) {
        String keyspace = options.keyspace();
        if (options.createSchema()) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = {'class': '"
                            + options.replicationStrategy() + "', 'replication_factor': "
                            + options.replicationFactor() + "}");
            for (BucketSpace space : BucketSpace.values()) {
                session.execute("CREATE TABLE IF NOT EXISTS " + table(keyspace, space) + " ("
                                + "sb int, ok bigint, id text, ts bigint, removed boolean, body blob, op uuid, "
                                + "PRIMARY KEY ((sb), ok, id))");
            }
        }
        Schema schema = new Schema();
        for (BucketSpace space : BucketSpace.values()) {
            String table = table(keyspace, space);
            schema.statements.put(space, new Statements(
                    session.prepare("SELECT " + COLUMNS + " FROM " + table + " WHERE sb = ? AND ok = ? AND id = ?"),
                    session.prepare("UPDATE " + table + " USING TTL ? SET ts = ?, removed = ?, body = ?, op = ? "
                                    + "WHERE sb = ? AND ok = ? AND id = ? IF ts = ?"),
                    session.prepare("SELECT sb, ok, id, " + COLUMNS + " FROM " + table
                                    + " WHERE sb = ? AND (ok, id) >= (?, ?) AND (ok) <= (?) LIMIT ?"),
                    session.prepare("SELECT sb, ok, id, " + COLUMNS + " FROM " + table
                                    + " WHERE sb IN ? PER PARTITION LIMIT ?"),
                    session.prepare("SELECT DISTINCT sb FROM " + table + " LIMIT ?")));
        }
        return schema;
    }

    /** The qualified name of the table of {@code space}. */
    static String table(String keyspace, BucketSpace space) {
        return keyspace + ".documents_" + space.wireName();
    }

    Statements of(BucketSpace space) {
        return statements.get(space);
    }

}

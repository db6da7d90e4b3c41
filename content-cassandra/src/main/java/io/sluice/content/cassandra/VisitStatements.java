package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.sluice.content.BucketSpace;

import java.util.EnumMap;
import java.util.Map;

/**
 * The prepared reads of one table that visits make. The rows of {@code scan} and {@code partition} have the same
 * columns, in this order: {@code ok}, {@code id}, {@code ts}, {@code removed}, {@code body} (see {@link #OK} and the
 * other column indexes), and nothing more, as every column costs Cassandra and the driver work on every row: the
 * partition is {@code ok}'s top distribution bits, and a visit computes its token only where a batch ends.
 *
 * @param scan       the partitions with tokens in {@code (?, ?]}, in token order, each in clustering order
 * @param partition  the rows of partition {@code sb = ?} from {@code (ok, id) >= (?, ?)} up to order key {@code ?}
 * @param keysAt     the partition keys with tokens in {@code [?, ?]} (one token, to find partitions sharing it)
 */
record VisitStatements(PreparedStatement scan, PreparedStatement partition, PreparedStatement keysAt) {

    static final int OK = 0, ID = 1, TS = 2, REMOVED = 3, BODY = 4;

    private static final String COLUMNS = "ok, id, ts, removed, body";

    /** Prepares the visit reads of every bucket space's table in {@code keyspace}. */
    static Map<BucketSpace, VisitStatements> prepare(CqlSession session, String keyspace) {
        Map<BucketSpace, VisitStatements> statements = new EnumMap<>(BucketSpace.class);
        for (BucketSpace space : BucketSpace.values()) {
            String table = Schema.table(keyspace, space);
            statements.put(space, new VisitStatements(
                    session.prepare("SELECT " + COLUMNS + " FROM " + table + " WHERE token(sb) > ? AND token(sb) <= ?"),
                    session.prepare("SELECT " + COLUMNS + " FROM " + table
                                    + " WHERE sb = ? AND (ok, id) >= (?, ?) AND (ok) <= (?)"),
                    session.prepare("SELECT DISTINCT sb FROM " + table + " WHERE token(sb) >= ? AND token(sb) <= ?")));
        }
        return Map.copyOf(statements);
    }

}

package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.sluice.content.BucketSpace;
import io.sluice.content.cassandra.CassandraOptions.Compaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.UUID;
import java.util.Map;
import java.util.Optional;

/**
 * The keyspace of one content cluster, one table per bucket space, and the prepared statements on them.
 *
 * <p>Table layout (see the module README for why): partition key {@code sb}, the document's superbucket as a visiting
 * cursor (the top distribution bits of its bucket order key); clustering by {@code ok}, the bucket order key, then the
 * document id, so each partition holds its documents in visiting order; the newest version's timestamp {@code ts}
 * (microseconds), a tombstone flag, the fields as JSON, and {@code op}, the id of the lightweight transaction attempt
 * that wrote it ({@link StoredVersion#PLAIN_WRITE} when a plain, timestamped write did; null in rows plain writes
 * wrote before that value existed).
 */
final class Schema {

    static final String COLUMNS = "ts, removed, body, op";

    /**
     * Ends the selects of one row by its whole primary key. It changes no result, but a node reads a select through a
     * pager (and answers with paging state) unless its limit is within the page size, and a select without a limit
     * has none: Cassandra 5.0's {@code SelectStatement.execute}. In GET benchmarks the saving was within the noise.
     */
    private static final String ONE_ROW = " LIMIT 1";

    /** The table of the keyspace's settings, and the name of the one setting it holds. */
    static final String SETTINGS = "settings";
    static final String DISTRIBUTION_BITS = "distribution-bits";

    private static final Logger log = LoggerFactory.getLogger(Schema.class);

    private final Map<BucketSpace, Statements> statements = new EnumMap<>(BucketSpace.class);

    /**
     * The prepared statements of one table's writes and reads of single rows (visits have {@link VisitStatements}):
     * {@code read} is the writes' read, with the write time of {@code ts}; {@code get} is a get's, without it (it
     * makes the node build its result through the slower path of selections with functions).
     */
    record Statements(PreparedStatement read, PreparedStatement get, PreparedStatement write,
                      PreparedStatement plainWrite) { }

    private Schema() { }

    /**
     * Creates the keyspace and tables if {@code options.createSchema()}, checks that the keyspace was written with
     * {@code options.distributionBits()}, and prepares the statements.
     */
    static Schema prepare(CqlSession session, CassandraOptions options) {
        String keyspace = options.keyspace();
        if (options.createSchema()) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = {'class': '"
                            + options.replicationStrategy() + "', 'replication_factor': "
                            + options.replicationFactor() + "}");
            for (BucketSpace space : BucketSpace.values()) {
                String table = table(keyspace, space);
                session.execute("CREATE TABLE IF NOT EXISTS " + table + " ("
                                + "sb int, ok bigint, id text, ts bigint, removed boolean, body blob, op uuid, "
                                + "PRIMARY KEY ((sb), ok, id)) WITH ID = " + tableId(table)
                                + " AND compaction = {'class': '" + options.compaction().className() + "'}");
                compactionMismatch(session, table, options.compaction()).ifPresent(log::warn);
            }
            String settings = keyspace + "." + SETTINGS;
            session.execute("CREATE TABLE IF NOT EXISTS " + settings + " (name text PRIMARY KEY, value text) "
                            + "WITH ID = " + tableId(settings));
        }
        checkDistributionBits(session, options);
        Schema schema = new Schema();
        for (BucketSpace space : BucketSpace.values()) {
            String table = table(keyspace, space);
            String row = " WHERE sb = ? AND ok = ? AND id = ?";
            schema.statements.put(space, new Statements(
                    session.prepare("SELECT " + COLUMNS + ", WRITETIME(ts) FROM " + table + row + ONE_ROW),
                    session.prepare("SELECT " + COLUMNS + " FROM " + table + row + ONE_ROW),
                    session.prepare("UPDATE " + table + " USING TTL ? SET ts = ?, removed = ?, body = ?, op = ?"
                                    + row + " IF ts = ?"),
                    session.prepare("UPDATE " + table + " USING TIMESTAMP ? AND TTL ? SET ts = ?, removed = ?, "
                                    + "body = ?, op = " + StoredVersion.PLAIN_WRITE + row)));
        }
        return schema;
    }

    /**
     * Records the distribution bits in the keyspace's settings table on first use, and afterwards refuses other
     * values: documents live in the partition their top bits name, so a keyspace written with one value and read with
     * another would look empty and fill up a second time. The check is skipped, with a warning, when the settings
     * table does not exist (a schema that a DBA created without it), or when too few nodes answer to read or record
     * the setting: a container must be able to start while the cluster is degraded.
     *
     * @throws InvalidCassandraOptionException if the keyspace was written with other distribution bits
     */
    private static void checkDistributionBits(CqlSession session, CassandraOptions options) {
        String table = options.keyspace() + "." + SETTINGS;
        String configured = Integer.toString(options.distributionBits());
        String stored;
        try {
            Row row = readSetting(session, table);
            if (row == null) {
                row = session.execute(SimpleStatement.newInstance(
                        "INSERT INTO " + table + " (name, value) VALUES (?, ?) IF NOT EXISTS", DISTRIBUTION_BITS,
                        configured)).one();
                if (row == null || row.getBoolean("[applied]")) {
                    return;
                }
            }
            stored = row.getString("value");
        } catch (InvalidQueryException e) {
            log.warn("Not checking distribution-bits {} against keyspace {}: no table {} ({})", configured,
                     options.keyspace(), table, e.getMessage());
            return;
        } catch (DriverException e) {
            log.warn("Not checking distribution-bits {} against keyspace {} now: {}", configured, options.keyspace(),
                     e.toString());
            return;
        }
        if (!configured.equals(stored)) {
            throw new InvalidCassandraOptionException(
                    "distribution-bits is " + configured + ", but keyspace '" + options.keyspace() + "' was set up "
                    + "with distribution-bits " + stored + ", which place its documents: with another value they "
                    + "would not be found. Set distribution-bits to " + stored + ", or use a new keyspace");
        }
    }

    /**
     * Why {@code table} does not have compaction {@code configured}, if it does not: Sluice creates tables with the
     * configured strategy, but never changes one that exists, since switching makes Cassandra rewrite the whole table.
     * Empty when it has, or when the table's strategy cannot be read (then logged).
     */
    static Optional<String> compactionMismatch(CqlSession session, String table, Compaction configured) {
        String actual;
        try {
            actual = compactionClass(session, table);
        } catch (DriverException e) {
            log.warn("Not checking the compaction of table {} against compaction '{}': {}", table,
                     configured.optionValue(), e.toString());
            return Optional.empty();
        }
        if (actual == null || actual.equals(configured.className()) || actual.endsWith("." + configured.className())) {
            return Optional.empty();
        }
        return Optional.of("Table " + table + " uses " + actual.substring(actual.lastIndexOf('.') + 1) + ", not "
                           + "the configured compaction '" + configured.optionValue() + "' (" + configured.className()
                           + "): Sluice sets the strategy only on the tables it creates. To switch (Cassandra then "
                           + "rewrites the table), run: " + alterCompaction(table, configured) + "; or set "
                           + "compaction to what the table has to silence this");
    }

    /** The class of {@code table}'s compaction strategy as the node has it, or null if there is no such table. */
    static String compactionClass(CqlSession session, String table) {
        int dot = table.indexOf('.');
        Row row = session.execute(SimpleStatement.newInstance(
                "SELECT compaction FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?",
                table.substring(0, dot), table.substring(dot + 1))).one();
        return row == null ? null : row.getMap("compaction", String.class, String.class).get("class");
    }

    /** The statement that switches {@code table} to {@code strategy}. */
    static String alterCompaction(String table, Compaction strategy) {
        return "ALTER TABLE " + table + " WITH compaction = {'class': '" + strategy.className() + "'}";
    }

    /** The recorded distribution bits, read at the session's consistency, or at ONE if that fails. */
    private static Row readSetting(CqlSession session, String table) {
        SimpleStatement read = SimpleStatement.newInstance("SELECT value FROM " + table + " WHERE name = ?",
                                                           DISTRIBUTION_BITS);
        try {
            return session.execute(read).one();
        } catch (DriverException e) { // often wrapped: the retry policy tries the next node after Unavailable
            return session.execute(read.setConsistencyLevel(DefaultConsistencyLevel.ONE)).one();
        }
    }

    /**
     * The id Sluice creates table {@code qualifiedName} with: a name-based UUID, the same in every container. Two
     * containers that start at once on an empty keyspace may both create a table; with a random id each (Cassandra's
     * default), the nodes could end up disagreeing about which of two tables it is. With the same id, the two
     * creations are the same table.
     */
    static UUID tableId(String qualifiedName) {
        return UUID.nameUUIDFromBytes(("sluice-table:" + qualifiedName).getBytes(StandardCharsets.UTF_8));
    }

    /** The qualified name of the table of {@code space}. */
    static String table(String keyspace, BucketSpace space) {
        return keyspace + ".documents_" + space.wireName();
    }

    Statements of(BucketSpace space) {
        return statements.get(space);
    }

}

package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * How a {@link CassandraContentBackend} reaches and lays out its data: contact points, keyspace, replication,
 * consistency levels, timeouts and limits. Immutable; {@link #fromEngineOptions} reads the {@code <cassandra>} element
 * of a {@code <content>} cluster, the withers change single settings.
 *
 * @param contactPoints       nodes the driver first connects to; it discovers the rest
 * @param localDatacenter     the data center whose nodes the driver prefers ({@code datacenter1} for a default node)
 * @param keyspace            the keyspace holding this content cluster's tables
 * @param replicationFactor   copies of every document: the cluster's {@code <min-redundancy>} unless overridden
 * @param replicationStrategy {@code NetworkTopologyStrategy} (the factor in every data center) or
 *                            {@code SimpleStrategy}
 * @param consistency         consistency of reads and of the commit of every write
 * @param serialConsistency   consistency of the Paxos phase of every write (LOCAL_SERIAL or SERIAL)
 * @param requestTimeout      the longest one request to Cassandra may take; an operation's deadline may cut it shorter
 * @param distributionBits    superbuckets are {@code 2^bits} partitions of each table; 1..32
 * @param tombstoneRetention  how long removes are remembered (and returned by visits with removes)
 * @param maxPendingOperations operations issued but not completed before new ones answer OVERLOAD
 * @param createSchema        whether {@code open} creates the keyspace and tables if missing
 * @param writeMode           how puts and removes without a condition are written (see {@link WriteMode})
 * @param maxClockSkew        the largest difference between this container's clock and any Cassandra node's that
 *                            timestamped writes tolerate; checked when the backend opens
 * @param visitConsistency    consistency of the reads of visits: with {@code consistency} for writes, a level that
 *                            overlaps their replicas (as LOCAL_QUORUM does LOCAL_QUORUM's) keeps every acknowledged
 *                            write in a visit that starts after it
 * @param getConsistency      consistency of gets (reads of one document by id): with {@code consistency} for writes, a
 *                            level that overlaps their replicas returns every write acknowledged before the get
 * @param compaction          the compaction strategy of the document tables Sluice creates
 * @param requireSyncedCommitlog whether opening fails unless every reachable node fsyncs its commit log before it
 *                            acknowledges a write ({@code commitlog_sync} batch or group); either way each node's mode
 *                            is logged at start-up
 */
public record CassandraOptions(List<InetSocketAddress> contactPoints, String localDatacenter, String keyspace,
                               int replicationFactor, String replicationStrategy, ConsistencyLevel consistency,
                               ConsistencyLevel serialConsistency, Duration requestTimeout, int distributionBits,
                               Duration tombstoneRetention, int maxPendingOperations, boolean createSchema,
                               WriteMode writeMode, Duration maxClockSkew, ConsistencyLevel visitConsistency,
                               ConsistencyLevel getConsistency, Compaction compaction,
                               boolean requireSyncedCommitlog) {

    /** The option names {@link #fromEngineOptions} understands. */
    public static final Set<String> NAMES = Set.of("contact-points", "local-datacenter", "keyspace",
                                                   "replication-factor", "replication-strategy", "consistency",
                                                   "serial-consistency", "request-timeout", "distribution-bits",
                                                   "tombstone-retention", "max-pending", "create-schema",
                                                   "write-mode", "max-clock-skew", "visit-consistency",
                                                   "get-consistency", "compaction",
                                                   "require-synced-commitlog");
    private static final int DEFAULT_PORT = 9042;
    private static final Duration MAX_MAX_CLOCK_SKEW = Duration.ofSeconds(10);

    /** How puts and removes without a condition reach Cassandra. */
    public enum WriteMode {

        /**
         * One plain write with a timestamp from this container's clock ({@code USING TIMESTAMP}): no read, no
         * Paxos, idempotent. Conditional writes, creates and updates still use lightweight transactions; the two kinds
         * are kept in order on a document as long as every clock is within {@code max-clock-skew} of every other.
         */
        TIMESTAMPED,

        /** Every write is a lightweight transaction, as conditional ones are: linearizable, and 5-10 times dearer. */
        STRICT;

        /** The name in {@code services.xml}. */
        public String optionValue() {
            return name().toLowerCase(Locale.ROOT);
        }

    }

    /** How Cassandra compacts the document tables Sluice creates: what a read costs, against what a write costs. */
    public enum Compaction {

        /**
         * Leveled: nearly every read of a document touches one sstable, however often the corpus was re-fed, and
         * visits read little overwritten data; but compaction rewrites much more during a bulk feed, taking CPU from
         * the writes.
         */
        LEVELED("leveled", "LeveledCompactionStrategy"),

        /** Size-tiered, Cassandra's own default: the least compaction work, but a read may touch several sstables. */
        SIZE_TIERED("size-tiered", "SizeTieredCompactionStrategy");

        private final String optionValue;
        private final String className;

        Compaction(String optionValue, String className) {
            this.optionValue = optionValue;
            this.className = className;
        }

        /** The name in {@code services.xml}. */
        public String optionValue() {
            return optionValue;
        }

        /** Cassandra's class name of the strategy, without its package. */
        public String className() {
            return className;
        }

    }

    /** @throws InvalidCassandraOptionException naming the setting and value if one is out of range */
    public CassandraOptions {
        contactPoints = List.copyOf(contactPoints);
        Objects.requireNonNull(localDatacenter, "localDatacenter");
        Objects.requireNonNull(consistency, "consistency");
        Objects.requireNonNull(serialConsistency, "serialConsistency");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        Objects.requireNonNull(tombstoneRetention, "tombstoneRetention");
        if (contactPoints.isEmpty()) {
            throw new InvalidCassandraOptionException("contact-points must name at least one node");
        }
        if (!keyspace.matches("[a-zA-Z][a-zA-Z0-9_]{0,47}")) {
            throw new InvalidCassandraOptionException("keyspace '" + keyspace + "' is not a valid Cassandra name: "
                                                      + "a letter, then up to 47 letters, digits or underscores");
        }
        if (replicationFactor < 1) {
            throw new InvalidCassandraOptionException("replication-factor must be at least 1, but was "
                                                      + replicationFactor);
        }
        if (!replicationStrategy.equals("NetworkTopologyStrategy") && !replicationStrategy.equals("SimpleStrategy")) {
            throw new InvalidCassandraOptionException("replication-strategy must be NetworkTopologyStrategy or "
                                                      + "SimpleStrategy, but was '" + replicationStrategy + "'");
        }
        if (!serialConsistency.isSerial()) {
            throw new InvalidCassandraOptionException("serial-consistency must be SERIAL or LOCAL_SERIAL, but was "
                                                      + serialConsistency.name());
        }
        if (consistency.isSerial()) {
            throw new InvalidCassandraOptionException("consistency must not be serial, but was " + consistency.name());
        }
        Objects.requireNonNull(visitConsistency, "visitConsistency");
        if (visitConsistency.isSerial()) {
            throw new InvalidCassandraOptionException("visit-consistency must not be serial, but was "
                                                      + visitConsistency.name());
        }
        Objects.requireNonNull(getConsistency, "getConsistency");
        if (getConsistency.isSerial()) {
            throw new InvalidCassandraOptionException("get-consistency must not be serial, but was "
                                                      + getConsistency.name());
        }
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new InvalidCassandraOptionException("request-timeout must be positive, but was " + requestTimeout);
        }
        if (distributionBits < 1 || distributionBits > 32) {
            throw new InvalidCassandraOptionException("distribution-bits must be in [1, 32], but was "
                                                      + distributionBits);
        }
        if (tombstoneRetention.getSeconds() < 1 || tombstoneRetention.getSeconds() > Integer.MAX_VALUE) {
            throw new InvalidCassandraOptionException("tombstone-retention must be from 1 second to "
                                                      + Integer.MAX_VALUE + " seconds, but was " + tombstoneRetention);
        }
        if (maxPendingOperations < 1) {
            throw new InvalidCassandraOptionException("max-pending must be positive, but was " + maxPendingOperations);
        }
        Objects.requireNonNull(writeMode, "writeMode");
        Objects.requireNonNull(compaction, "compaction");
        Objects.requireNonNull(maxClockSkew, "maxClockSkew");
        if (maxClockSkew.compareTo(Duration.ofMillis(1)) < 0 || maxClockSkew.compareTo(MAX_MAX_CLOCK_SKEW) > 0) {
            throw new InvalidCassandraOptionException("max-clock-skew must be from 0.001 to "
                                                      + MAX_MAX_CLOCK_SKEW.getSeconds() + " seconds, but was "
                                                      + maxClockSkew.toNanos() / 1e9);
        }
    }

    /**
     * Options for content cluster {@code clusterId} with {@code redundancy} copies: a node on 127.0.0.1:9042 in
     * {@code datacenter1}, keyspace {@code sluice_<clusterId>}, NetworkTopologyStrategy, LOCAL_QUORUM and
     * LOCAL_SERIAL, 10 s requests, 16 distribution bits, 14 days of tombstones, 4096 pending operations,
     * timestamped plain writes tolerating 50 ms of clock skew, visits and gets at LOCAL_QUORUM, leveled compaction,
     * and nodes whose commit log is not fsynced before acknowledging only warned of.
     */
    public static CassandraOptions defaults(String clusterId, int redundancy) {
        return new CassandraOptions(List.of(new InetSocketAddress("127.0.0.1", DEFAULT_PORT)), "datacenter1",
                                    keyspaceFor(clusterId), redundancy, "NetworkTopologyStrategy",
                                    DefaultConsistencyLevel.LOCAL_QUORUM, DefaultConsistencyLevel.LOCAL_SERIAL,
                                    Duration.ofSeconds(10), 16, Duration.ofDays(14), 4096, true,
                                    WriteMode.TIMESTAMPED, Duration.ofMillis(50), DefaultConsistencyLevel.LOCAL_QUORUM,
                                    DefaultConsistencyLevel.LOCAL_QUORUM, Compaction.LEVELED, false);
    }

    /**
     * Reads the engine options of a {@code <content id=clusterId>} cluster with {@code <min-redundancy>} {@code
     * redundancy} (see the module README for each option); unset options keep their {@link #defaults}, but for
     * {@code visit-consistency} and {@code get-consistency}, which are {@code consistency} unless set.
     *
     * @throws InvalidCassandraOptionException naming the option if one is unknown or has a bad value
     */
    public static CassandraOptions fromEngineOptions(String clusterId, int redundancy, Map<String, String> options) {
        Set<String> unknown = new TreeSet<>(options.keySet());
        unknown.removeAll(NAMES);
        if (!unknown.isEmpty()) {
            throw new InvalidCassandraOptionException("Unknown <cassandra> option" + (unknown.size() > 1 ? "s " : " ")
                                                      + String.join(", ", unknown) + "; known are "
                                                      + String.join(", ", new TreeSet<>(NAMES)));
        }
        CassandraOptions o = defaults(clusterId, redundancy);
        ConsistencyLevel consistency = options.containsKey("consistency") ? consistency(options, "consistency")
                                                                          : o.consistency;
        CassandraOptions read = new CassandraOptions(
                options.containsKey("contact-points") ? contactPoints(options.get("contact-points"))
                                                      : o.contactPoints,
                options.getOrDefault("local-datacenter", o.localDatacenter),
                options.getOrDefault("keyspace", o.keyspace),
                options.containsKey("replication-factor") ? integer(options, "replication-factor")
                                                          : o.replicationFactor,
                options.getOrDefault("replication-strategy", o.replicationStrategy),
                consistency,
                options.containsKey("serial-consistency") ? consistency(options, "serial-consistency")
                                                          : o.serialConsistency,
                options.containsKey("request-timeout") ? seconds(options, "request-timeout") : o.requestTimeout,
                options.containsKey("distribution-bits") ? integer(options, "distribution-bits")
                                                         : o.distributionBits,
                options.containsKey("tombstone-retention") ? seconds(options, "tombstone-retention")
                                                           : o.tombstoneRetention,
                options.containsKey("max-pending") ? integer(options, "max-pending") : o.maxPendingOperations,
                options.containsKey("create-schema") ? bool(options, "create-schema") : o.createSchema,
                options.containsKey("write-mode") ? choice(options, "write-mode", WriteMode.values(),
                                                                          WriteMode::optionValue) : o.writeMode,
                options.containsKey("max-clock-skew") ? seconds(options, "max-clock-skew") : o.maxClockSkew,
                options.containsKey("visit-consistency") ? consistency(options, "visit-consistency") : consistency,
                options.containsKey("get-consistency") ? consistency(options, "get-consistency") : consistency,
                options.containsKey("compaction") ? choice(options, "compaction", Compaction.values(),
                                                                          Compaction::optionValue) : o.compaction,
                options.containsKey("require-synced-commitlog") ? bool(options, "require-synced-commitlog")
                                                                : o.requireSyncedCommitlog);
        if (options.containsKey("compaction") && !read.createSchema) {
            throw new InvalidCassandraOptionException("compaction applies to the tables Sluice creates, but "
                                                      + "create-schema is false: set the strategy on your own tables, "
                                                      + "and remove compaction");
        }
        return read;
    }

    /** {@code sluice_} and the cluster id, lower-cased, with characters Cassandra does not allow made underscores. */
    static String keyspaceFor(String clusterId) {
        String name = "sluice_" + clusterId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return name.length() > 48 ? name.substring(0, 48) : name;
    }

    private static List<InetSocketAddress> contactPoints(String value) {
        List<InetSocketAddress> points = new ArrayList<>();
        for (String point : value.split(",")) {
            String trimmed = point.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            int colon = trimmed.lastIndexOf(':');
            boolean hasPort = colon > 0 && trimmed.indexOf(':') == colon; // one colon: host:port; IPv6 needs [..]:port
            if (trimmed.startsWith("[")) {
                int close = trimmed.indexOf(']');
                hasPort = close > 0 && colon == close + 1;
            }
            String host = hasPort ? trimmed.substring(0, colon) : trimmed;
            int port = DEFAULT_PORT;
            if (hasPort) {
                try {
                    port = Integer.parseInt(trimmed.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
                if (port < 1 || port > 65535) {
                    throw new InvalidCassandraOptionException("contact-points entry '" + trimmed
                                                              + "' has no valid port");
                }
            }
            points.add(InetSocketAddress.createUnresolved(host.replace("[", "").replace("]", ""), port));
        }
        if (points.isEmpty()) {
            throw new InvalidCassandraOptionException("contact-points '" + value + "' names no node");
        }
        return points;
    }

    private static int integer(Map<String, String> options, String name) {
        String value = options.get(name);
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new InvalidCassandraOptionException(name + " must be an integer, but was '" + value + "'");
        }
    }

    private static Duration seconds(Map<String, String> options, String name) {
        String value = options.get(name);
        try {
            double seconds = Double.parseDouble(value.trim());
            if (!(seconds > 0) || seconds > Integer.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return Duration.ofNanos(Math.round(seconds * 1e9));
        } catch (NumberFormatException e) {
            throw new InvalidCassandraOptionException(name + " must be a positive number of seconds, but was '"
                                                      + value + "'");
        }
    }

    private static boolean bool(Map<String, String> options, String name) {
        String value = options.get(name).trim();
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new InvalidCassandraOptionException(name + " must be true or false, but was '" + value + "'");
    }

    /** The one of {@code choices} whose {@code optionValue} is option {@code name}'s value. */
    private static <E extends Enum<E>> E choice(Map<String, String> options, String name, E[] choices,
                                                Function<E, String> optionValue) {
        String value = options.get(name);
        List<String> names = new ArrayList<>();
        for (E choice : choices) {
            if (optionValue.apply(choice).equals(value.trim())) {
                return choice;
            }
            names.add("'" + optionValue.apply(choice) + "'");
        }
        throw new InvalidCassandraOptionException(name + " must be " + String.join(" or ", names) + ", but was '"
                                                  + value + "'");
    }

    private static ConsistencyLevel consistency(Map<String, String> options, String name) {
        String value = options.get(name).trim();
        try {
            return DefaultConsistencyLevel.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidCassandraOptionException(name + " '" + value + "' is not a Cassandra consistency level, "
                                                      + "such as LOCAL_QUORUM, QUORUM, LOCAL_SERIAL or SERIAL");
        }
    }

    /** These options with other contact points. */
    public CassandraOptions withContactPoints(List<InetSocketAddress> points) {
        return new CassandraOptions(points, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

    /** These options with another keyspace. */
    public CassandraOptions withKeyspace(String keyspace) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

    /** These options with another replication factor. */
    public CassandraOptions withReplicationFactor(int factor) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, factor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

    /** These options with another request timeout. */
    public CassandraOptions withRequestTimeout(Duration timeout) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, timeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

    /** These options with another number of distribution bits. */
    public CassandraOptions withDistributionBits(int bits) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, bits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

    /** These options with another limit on pending operations. */
    public CassandraOptions withMaxPendingOperations(int max) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, max, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

    /** These options with another write mode. */
    public CassandraOptions withWriteMode(WriteMode mode) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, mode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

    /** These options with another compaction strategy for the tables Sluice creates. */
    public CassandraOptions withCompaction(Compaction strategy) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, strategy, requireSyncedCommitlog);
    }

    /** These options, requiring (or not) nodes that fsync their commit log before acknowledging. */
    public CassandraOptions withRequireSyncedCommitlog(boolean require) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, maxClockSkew,
                                    visitConsistency, getConsistency, compaction, require);
    }

    /** These options with another tolerated clock skew. */
    public CassandraOptions withMaxClockSkew(Duration skew) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replicationFactor, replicationStrategy,
                                    consistency, serialConsistency, requestTimeout, distributionBits,
                                    tombstoneRetention, maxPendingOperations, createSchema, writeMode, skew,
                                    visitConsistency, getConsistency, compaction, requireSyncedCommitlog);
    }

}
